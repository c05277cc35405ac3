/* A CoreMark-like mix: a linked list (build, reverse, scan), an 8x8 integer matrix
 * multiply, a state machine scanning text, and CRC-16 over the results. */
#include "peer.h"

struct node { int value; struct node *next; };

static struct node pool[CORE_LIST];
static int a[8][8], b[8][8], c[8][8];
static const char text[] = "123 45.6 -7e3 abc 0x1F 99 , 8.5e-1 +4 5e ";

static unsigned crc16(unsigned crc, unsigned byte)
{
    crc ^= byte & 0xFF;
    for (int k = 0; k < 8; k++)
        crc = (crc & 1) ? (crc >> 1) ^ 0xA001 : crc >> 1;
    return crc;
}

static int scan(const char *s)
{
    int state = 0, count = 0;
    for (; *s; s++) {
        char ch = *s;
        int digit = ch >= '0' && ch <= '9';
        switch (state) {
        case 0: state = digit || ch == '-' || ch == '+' ? 1 : ch == ' ' ? 0 : 4; break;
        case 1:
            if (ch == ' ') { count++; state = 0; }
            else if (ch == '.') state = 2;
            else if (ch == 'e' || ch == 'E') state = 3;
            else if (!digit) state = 4;
            break;
        case 2:
            if (ch == ' ') { count++; state = 0; }
            else if (ch == 'e' || ch == 'E') state = 3;
            else if (!digit) state = 4;
            break;
        case 3:
            if (ch == ' ') { count++; state = 0; }
            else if (!digit && ch != '-') state = 4;
            break;
        default:
            if (ch == ' ') state = 0;
            break;
        }
    }
    return count;
}

unsigned run(void)
{
    unsigned crc = 0xFFFF, seed = 12345;
    for (int it = 0; it < CORE_ITERATIONS; it++) {
        struct node *head = 0, *prev = 0;
        for (int i = 0; i < CORE_LIST; i++) {
            seed = seed * 1103515245u + 12345u;
            pool[i].value = (int)((seed >> 16) & 0x7FFF);
            pool[i].next = head;
            head = &pool[i];
        }
        while (head) {
            struct node *next = head->next;
            head->next = prev;
            prev = head;
            head = next;
        }
        int max = -1;
        unsigned sum = 0;
        for (struct node *p = prev; p; p = p->next) {
            if (p->value > max) max = p->value;
            sum += (unsigned)p->value;
        }
        crc = crc16(crc, (unsigned)max);
        crc = crc16(crc, sum);
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                a[i][j] = (int)((seed >> ((i + j) & 15)) & 0xFF) - 64;
                b[i][j] = (int)((seed >> ((i * j) & 15)) & 0x7F) + i - j;
            }
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                int s = 0;
                for (int k = 0; k < 8; k++) s += a[i][k] * b[k][j];
                c[i][j] = s;
            }
        for (int i = 0; i < 8; i++) crc = crc16(crc, (unsigned)c[i][i]);
        crc = crc16(crc, (unsigned)scan(text));
    }
    return crc;
}
PEER_MAIN
