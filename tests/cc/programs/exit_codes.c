#include <stdio.h>
#include <stdlib.h>
static void bye(void) { printf("atexit ran\n"); }
int main(void) {
    atexit(bye);
    printf("before exit\n");
    exit(77);
    printf("not reached\n");
    return 0;
}
