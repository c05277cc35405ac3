#include <stdio.h>
static int next_id(void) { static int id = 100; return id++; }
static const char *cycle(void) { static const char *words[] = {"red", "green", "blue"}; static int i; return words[i++ % 3]; }
int main(void) {
    for (int i = 0; i < 5; i++) printf("%d %s\n", next_id(), cycle());
    return next_id() - 100;
}
