#include <stdio.h>
int counter = 5;
static int hidden = 7;
const int table[5] = {1, 1, 2, 3, 5};
const char *greeting = "hi there";
int *ptr_to_counter = &counter;
struct cfg { const char *name; int vals[3]; double scale; } config = { "cfg", {4, 5, 6}, 0.5 };
static struct cfg *cfgp = &config;
int zeroed[100];
static long long big = 1LL << 50;
static void bump(void) { counter++; hidden += 2; }
int main(void) {
    bump(); bump();
    *ptr_to_counter += 10;
    zeroed[42] = table[4];
    int s = 0;
    for (int i = 0; i < 100; i++) s += zeroed[i];
    printf("%d %d %d %s %s %d %f %lld\n", counter, hidden, s, greeting, cfgp->name, cfgp->vals[2], config.scale, big);
    return counter + hidden;
}
