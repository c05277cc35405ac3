/* Computed goto (GNU C): a threaded bytecode interpreter with a static table of label
 * addresses, label addresses in a local array and in variables, values that flow
 * through the jumps (comparing label addresses is left out: clang folds it). */
#include <stdio.h>

enum { SETA, SETC, MULC, ADDC, DECC, JNZC, PRINT, HALT };

/* A register machine: acc, a counter, and jumps by index into the code. */
static long run(const int *code) {
    static const void *const dispatch[] = { &&seta, &&setc, &&mulc, &&addc, &&decc,
                                            &&jnzc, &&print, &&halt };
    long acc = 0, counter = 0, steps = 0;
    const int *pc = code;
#define NEXT do { steps++; goto *dispatch[*pc++]; } while (0)
    NEXT;
seta:
    acc = *pc++;
    NEXT;
setc:
    counter = *pc++;
    NEXT;
mulc:
    acc *= counter;
    NEXT;
addc:
    acc += counter;
    NEXT;
decc:
    counter--;
    NEXT;
jnzc:
    if (counter)
        pc = code + *pc;
    else
        pc++;
    NEXT;
print:
    printf("acc=%ld counter=%ld\n", acc, counter);
    NEXT;
halt:
    return acc * 1000 + steps;
#undef NEXT
}

static int classify(int x) {
    void *where[] = { &&neg, &&zero, &&pos };
    int acc = 0;
    goto *where[(x > 0) - (x < 0) + 1];
neg:
    acc -= 100;
zero:
    acc += 10;
pos:
    acc += 1;
    return acc;
}

int main(void) {
    const int fact[] = { SETA, 1, SETC, 6, /* 4: */ MULC, PRINT, DECC, JNZC, 4, HALT };
    const int sum[] = { SETA, 0, SETC, 100, /* 4: */ ADDC, DECC, JNZC, 4, HALT };
    printf("%ld %ld\n", run(fact), run(sum));
    printf("%d %d %d\n", classify(-5), classify(0), classify(7));
    void *label = &&first;
    int visits = 0;
again:
    visits++;
    if (visits < 4) {
        label = visits % 2 ? &&second : &&first;
        goto *label;
    }
    goto done;
first:
    printf("first %d\n", visits);
    goto again;
second:
    printf("second %d\n", visits);
    goto again;
done:
    printf("visits %d\n", visits);
    return 0;
}
