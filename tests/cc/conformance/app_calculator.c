/* A small application: a tokenizer and recursive-descent calculator with variables in
 * a hash table (strtod, ctype, calloc), a string builder (vsnprintf, realloc), CRC-32,
 * a merge sort of a linked list, a bignum factorial, qsort of records, FNV-1a 64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <stdint.h>
#include <stdbool.h>

/* -- tokenizer + recursive descent calculator with variables --------------------------- */
typedef enum { T_NUM, T_ID, T_OP, T_END } Kind;
typedef struct { Kind kind; double num; char text[16]; char op; } Token;
typedef struct { const char *src; size_t pos; Token cur; } Lexer;
static void next_token(Lexer *lx) {
    while (isspace((unsigned char)lx->src[lx->pos])) lx->pos++;
    char c = lx->src[lx->pos];
    if (!c) { lx->cur.kind = T_END; return; }
    if (isdigit((unsigned char)c) || c == '.') {
        char *end; lx->cur.num = strtod(lx->src + lx->pos, &end);
        lx->pos = (size_t)(end - lx->src); lx->cur.kind = T_NUM; return;
    }
    if (isalpha((unsigned char)c)) {
        size_t n = 0;
        while (isalnum((unsigned char)lx->src[lx->pos]) && n < 15) lx->cur.text[n++] = lx->src[lx->pos++];
        lx->cur.text[n] = 0; lx->cur.kind = T_ID; return;
    }
    lx->cur.kind = T_OP; lx->cur.op = c; lx->pos++;
}
struct var { char name[16]; double value; struct var *next; };
static struct var *vars[31];
static unsigned hash_str(const char *s) { unsigned h = 2166136261u; while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; } return h; }
static struct var *lookup(const char *name, bool create) {
    unsigned h = hash_str(name) % 31;
    for (struct var *v = vars[h]; v; v = v->next) if (!strcmp(v->name, name)) return v;
    if (!create) return NULL;
    struct var *v = calloc(1, sizeof *v); strcpy(v->name, name); v->next = vars[h]; vars[h] = v; return v;
}
static double expr(Lexer *lx);
static double primary(Lexer *lx) {
    Token t = lx->cur;
    if (t.kind == T_NUM) { next_token(lx); return t.num; }
    if (t.kind == T_ID) { next_token(lx); struct var *v = lookup(t.text, false); return v ? v->value : 0; }
    if (t.kind == T_OP && t.op == '(') { next_token(lx); double v = expr(lx); next_token(lx); return v; }
    if (t.kind == T_OP && t.op == '-') { next_token(lx); return -primary(lx); }
    return 0;
}
static double power(Lexer *lx) {
    double b = primary(lx);
    if (lx->cur.kind == T_OP && lx->cur.op == '^') { next_token(lx); double e = power(lx); double r = 1; for (int i = 0; i < (int)e; i++) r *= b; return r; }
    return b;
}
static double term(Lexer *lx) {
    double v = power(lx);
    while (lx->cur.kind == T_OP && (lx->cur.op == '*' || lx->cur.op == '/' || lx->cur.op == '%')) {
        char op = lx->cur.op; next_token(lx); double r = power(lx);
        v = op == '*' ? v * r : op == '/' ? v / r : (double)((long long)v % (long long)r);
    }
    return v;
}
static double expr(Lexer *lx) {
    double v = term(lx);
    while (lx->cur.kind == T_OP && (lx->cur.op == '+' || lx->cur.op == '-')) { char op = lx->cur.op; next_token(lx); double r = term(lx); v = op == '+' ? v + r : v - r; }
    return v;
}
static void statement(const char *line) {
    Lexer lx = {line, 0, {0}};
    next_token(&lx);
    if (lx.cur.kind == T_ID) {
        size_t save = lx.pos; Token t = lx.cur; next_token(&lx);
        if (lx.cur.kind == T_OP && lx.cur.op == '=') { next_token(&lx); double v = expr(&lx); lookup(t.text, true)->value = v; printf("%s = %.10g\n", t.text, v); return; }
        lx.pos = save; lx.cur = t;
    }
    printf("%.10g\n", expr(&lx));
}
/* -- string builder --------------------------------------------------------------------- */
typedef struct { char *buf; size_t len, cap; } Sb;
static void sb_add(Sb *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void sb_add(Sb *sb, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); int n = vsnprintf(NULL, 0, fmt, ap); va_end(ap);
    if (sb->len + n + 1 > sb->cap) { sb->cap = (sb->len + n + 1) * 2; sb->buf = realloc(sb->buf, sb->cap); }
    va_start(ap, fmt); vsnprintf(sb->buf + sb->len, n + 1, fmt, ap); va_end(ap); sb->len += n;
}
/* -- CRC32, merge sort of a list, bignum factorial --------------------------------------- */
static uint32_t crc_table[256];
static void crc_init(void) { for (uint32_t i = 0; i < 256; i++) { uint32_t c = i; for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1; crc_table[i] = c; } }
static uint32_t crc32(const void *data, size_t n) { const uint8_t *p = data; uint32_t c = 0xFFFFFFFFu; while (n--) c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8); return c ^ 0xFFFFFFFFu; }
struct node { int key; struct node *next; };
static struct node *merge(struct node *a, struct node *b) { struct node head, *t = &head; while (a && b) { if (a->key <= b->key) { t->next = a; a = a->next; } else { t->next = b; b = b->next; } t = t->next; } t->next = a ? a : b; return head.next; }
static struct node *msort(struct node *h) { if (!h || !h->next) return h; struct node *slow = h, *fast = h->next; while (fast && fast->next) { slow = slow->next; fast = fast->next->next; } struct node *b = slow->next; slow->next = NULL; return merge(msort(h), msort(b)); }
static void factorial(int n, char *out) {
    unsigned digits[200] = {1}; int len = 1;
    for (int k = 2; k <= n; k++) { unsigned carry = 0; for (int i = 0; i < len; i++) { unsigned long long v = (unsigned long long)digits[i] * k + carry; digits[i] = (unsigned)(v % 1000000000u); carry = (unsigned)(v / 1000000000u); } while (carry) { digits[len++] = carry % 1000000000u; carry /= 1000000000u; } }
    int pos = sprintf(out, "%u", digits[len - 1]);
    for (int i = len - 2; i >= 0; i--) pos += sprintf(out + pos, "%09u", digits[i]);
}
typedef struct { char name[12]; int score; double ratio; } Rec;
static int by_score(const void *a, const void *b) { const Rec *x = a, *y = b; if (x->score != y->score) return y->score - x->score; return strcmp(x->name, y->name); }
int main(void) {
    const char *prog[] = {"x = 3", "y = x * 2 + 1", "(x + y) * (y - x) / 2", "z = 2 ^ 10 - 1", "z % 100 + -x", "unknown + 1", "r = 1 / 3", "r * 3 == 1"};
    for (size_t i = 0; i < sizeof prog / sizeof *prog; i++) statement(prog[i]);
    Sb sb = {0};
    for (int i = 0; i < 50; i++) sb_add(&sb, "%d:%s;", i * i, i % 3 ? "odd" : "three");
    printf("%zu %.40s\n", sb.len, sb.buf);
    crc_init(); printf("%08x %08x\n", crc32(sb.buf, sb.len), crc32("123456789", 9));
    free(sb.buf);
    struct node pool[100]; struct node *head = NULL;
    for (int i = 0; i < 100; i++) { pool[i].key = (i * 7919) % 101 - 50; pool[i].next = head; head = &pool[i]; }
    head = msort(head); int prev = -1000, ok = 1, cnt = 0; for (struct node *p = head; p; p = p->next) { ok &= p->key >= prev; prev = p->key; cnt++; }
    printf("sorted %d %d first %d last %d\n", ok, cnt, head->key, prev);
    char fact[400]; factorial(60, fact); printf("60! = %s\n", fact);
    Rec recs[] = {{"delta", 70, 0.5}, {"alpha", 90, 1.25}, {"echo", 70, 2.0}, {"bravo", 85, 0.75}, {"charlie", 90, 0.1}};
    qsort(recs, 5, sizeof recs[0], by_score);
    for (int i = 0; i < 5; i++) printf("%-8s %3d %5.2f\n", recs[i].name, recs[i].score, recs[i].ratio);
    uint64_t h = 1469598103934665603ULL; for (int i = 0; i < 1000; i++) { h ^= (uint64_t)i; h *= 1099511628211ULL; }
    printf("%016llx\n", (unsigned long long)h);
    return 0;
}
