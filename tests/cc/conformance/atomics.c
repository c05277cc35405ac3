/* C11 atomics (stdatomic.h) and the GNU __sync/__atomic builtins on 8-, 16- and 32-bit
 * objects: fetch-and-op, exchange, compare-exchange, flags, fences. */
#include <stdio.h>
#include <stdatomic.h>
#include <stdbool.h>

static _Atomic int counter = 0;
static atomic_uint flags;
static atomic_ushort small = ATOMIC_VAR_INIT(65530);
static atomic_bool ready;

int main(void) {
    for (int i = 0; i < 10; i++)
        atomic_fetch_add(&counter, i);
    atomic_fetch_or(&flags, 5u);
    atomic_fetch_and(&flags, 6u);
    atomic_fetch_xor(&flags, 1u);
    int expected = 45;
    bool ok = atomic_compare_exchange_strong(&counter, &expected, 100);
    bool bad = atomic_compare_exchange_strong(&counter, &expected, 7);
    printf("%d %d %d %d %u\n", ok, bad, expected, atomic_load(&counter), atomic_load(&flags));
    atomic_store(&counter, 3);
    counter++;
    counter += 2;
    int old = atomic_exchange(&counter, 9);
    printf("%d %d\n", old, atomic_load_explicit(&counter, memory_order_relaxed));
    for (int i = 0; i < 10; i++)
        atomic_fetch_add_explicit(&small, 1, memory_order_relaxed);
    printf("%u\n", (unsigned)atomic_load(&small));
    atomic_store_explicit(&ready, true, memory_order_release);
    printf("%d\n", atomic_load_explicit(&ready, memory_order_acquire));
    int s = 0;
    int before = __sync_fetch_and_add(&s, 5);
    int seen = __sync_val_compare_and_swap(&s, 5, 6);
    int swapped = __sync_bool_compare_and_swap(&s, 6, 1);
    printf("%d %d %d %d\n", before, seen, swapped, s);
    unsigned char byte = 200;
    unsigned char got = __atomic_fetch_add(&byte, 100, __ATOMIC_SEQ_CST);
    printf("%u %u\n", got, byte);
    atomic_flag f = ATOMIC_FLAG_INIT;
    bool first = atomic_flag_test_and_set(&f);
    bool second = atomic_flag_test_and_set(&f);
    atomic_flag_clear(&f);
    bool third = atomic_flag_test_and_set(&f);
    printf("%d %d %d\n", first, second, third);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_signal_fence(memory_order_seq_cst);
    printf("%d\n", atomic_is_lock_free(&counter));
    return 0;
}
