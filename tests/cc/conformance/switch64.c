/* switch on 64-bit values: sparse cases above 2^32, negative cases, dense ranges. */
#include <stdio.h>

static const char *name(unsigned long long v) {
    switch (v) {
    case 0: return "zero";
    case 1: return "one";
    case 0x100000000ULL: return "2^32";
    case 0xFFFFFFFFFFFFFFFFULL: return "max";
    case 0x8000000000000000ULL: return "top";
    case 42: return "answer";
    case 0x123456789ULL: return "big";
    case 0xFFFFFFFFULL: return "u32max";
    default: return "other";
    }
}

static int dense(long long v) {
    switch (v) {
    case -3: return 10;
    case -2: return 11;
    case -1: return 12;
    case 0: return 13;
    case 1: return 14;
    case 2: return 15;
    case 3: return 16;
    case 4: return 17;
    case 5: return 18;
    case 6: return 19;
    default: return -1;
    }
}

static int high(long long v) {
    switch (v) {
    case 0x500000000LL: return 1;
    case 0x500000001LL: return 2;
    case 0x500000002LL: return 3;
    case 0x500000003LL: return 4;
    case 0x500000004LL: return 5;
    case -0x500000000LL: return 6;
    default: return 0;
    }
}

int main(void) {
    unsigned long long vals[] = { 0, 1, 0x100000000ULL, ~0ULL, 1ULL << 63, 42,
                                  0x123456789ULL, 7, 0x200000001ULL, 0xFFFFFFFFULL,
                                  0x1FFFFFFFFULL };
    for (int i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++)
        printf("%s ", name(vals[i]));
    printf("\n");
    for (long long v = -5; v < 9; v++)
        printf("%d ", dense(v));
    printf("%d %d\n", dense(0x100000001LL), dense(-0x100000000LL - 3));
    for (long long v = 0x4FFFFFFFELL; v < 0x500000006LL; v++)
        printf("%d", high(v));
    printf(" %d %d\n", high(-0x500000000LL), high(0x000000001LL));
    return 0;
}
