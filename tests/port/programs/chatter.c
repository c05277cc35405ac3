/* For the event rate benchmark: prints a short line again and again. */
#include <stdio.h>

int main(void) {
    for (int i = 0;; i++)
        printf("tick %d\n", i);
}
