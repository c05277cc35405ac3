#include <stdio.h>
enum state { IDLE, NUMBER, WORD, DONE };
int main(void) {
    const char *text = "abc 123 de 4567 f 89 ghij";
    enum state st = IDLE;
    int words = 0, numbers = 0, sum = 0, cur = 0;
    for (const char *p = text;; p++) {
        char c = *p;
        switch (st) {
        case IDLE:
            if (c >= '0' && c <= '9') { st = NUMBER; cur = c - '0'; }
            else if (c >= 'a' && c <= 'z') st = WORD;
            else if (!c) st = DONE;
            break;
        case NUMBER:
            if (c >= '0' && c <= '9') cur = cur * 10 + (c - '0');
            else { numbers++; sum += cur; st = c ? IDLE : DONE; }
            break;
        case WORD:
            if (!(c >= 'a' && c <= 'z')) { words++; st = c ? IDLE : DONE; }
            break;
        case DONE: break;
        }
        if (st == DONE) break;
    }
    printf("%d %d %d\n", words, numbers, sum);
    return words * 10 + numbers;
}
