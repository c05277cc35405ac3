/* stdatomic.h (C11) on clang's __c11_atomic builtins.  A task runs alone between its
 * SVCs and preemption points, so 8-, 16- and 32-bit atomics are plain loads, stores
 * and read-modify-write sequences; 64-bit atomic operations are not supported. */
#ifndef _HSX_STDATOMIC_H
#define _HSX_STDATOMIC_H
#include <stddef.h>

typedef enum memory_order {
    memory_order_relaxed = __ATOMIC_RELAXED,
    memory_order_consume = __ATOMIC_CONSUME,
    memory_order_acquire = __ATOMIC_ACQUIRE,
    memory_order_release = __ATOMIC_RELEASE,
    memory_order_acq_rel = __ATOMIC_ACQ_REL,
    memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;

#define ATOMIC_BOOL_LOCK_FREE __CLANG_ATOMIC_BOOL_LOCK_FREE
#define ATOMIC_CHAR_LOCK_FREE __CLANG_ATOMIC_CHAR_LOCK_FREE
#define ATOMIC_CHAR16_T_LOCK_FREE __CLANG_ATOMIC_CHAR16_T_LOCK_FREE
#define ATOMIC_CHAR32_T_LOCK_FREE __CLANG_ATOMIC_CHAR32_T_LOCK_FREE
#define ATOMIC_WCHAR_T_LOCK_FREE __CLANG_ATOMIC_WCHAR_T_LOCK_FREE
#define ATOMIC_SHORT_LOCK_FREE __CLANG_ATOMIC_SHORT_LOCK_FREE
#define ATOMIC_INT_LOCK_FREE __CLANG_ATOMIC_INT_LOCK_FREE
#define ATOMIC_LONG_LOCK_FREE __CLANG_ATOMIC_LONG_LOCK_FREE
#define ATOMIC_LLONG_LOCK_FREE __CLANG_ATOMIC_LLONG_LOCK_FREE
#define ATOMIC_POINTER_LOCK_FREE __CLANG_ATOMIC_POINTER_LOCK_FREE

#define ATOMIC_VAR_INIT(value) (value)
#define atomic_init(obj, value) __c11_atomic_init(obj, value)
#define kill_dependency(y) (y)
#define atomic_thread_fence(order) __c11_atomic_thread_fence(order)
#define atomic_signal_fence(order) __c11_atomic_signal_fence(order)
#define atomic_is_lock_free(obj) __c11_atomic_is_lock_free(sizeof(*(obj)))

typedef _Atomic(_Bool) atomic_bool;
typedef _Atomic(char) atomic_char;
typedef _Atomic(signed char) atomic_schar;
typedef _Atomic(unsigned char) atomic_uchar;
typedef _Atomic(short) atomic_short;
typedef _Atomic(unsigned short) atomic_ushort;
typedef _Atomic(int) atomic_int;
typedef _Atomic(unsigned int) atomic_uint;
typedef _Atomic(long) atomic_long;
typedef _Atomic(unsigned long) atomic_ulong;
typedef _Atomic(long long) atomic_llong;
typedef _Atomic(unsigned long long) atomic_ullong;
typedef _Atomic(__CHAR16_TYPE__) atomic_char16_t;
typedef _Atomic(__CHAR32_TYPE__) atomic_char32_t;
typedef _Atomic(__WCHAR_TYPE__) atomic_wchar_t;
typedef _Atomic(signed char) atomic_int_least8_t;
typedef _Atomic(unsigned char) atomic_uint_least8_t;
typedef _Atomic(short) atomic_int_least16_t;
typedef _Atomic(unsigned short) atomic_uint_least16_t;
typedef _Atomic(int) atomic_int_least32_t;
typedef _Atomic(unsigned int) atomic_uint_least32_t;
typedef _Atomic(long long) atomic_int_least64_t;
typedef _Atomic(unsigned long long) atomic_uint_least64_t;
typedef _Atomic(signed char) atomic_int_fast8_t;
typedef _Atomic(unsigned char) atomic_uint_fast8_t;
typedef _Atomic(int) atomic_int_fast16_t;
typedef _Atomic(unsigned int) atomic_uint_fast16_t;
typedef _Atomic(int) atomic_int_fast32_t;
typedef _Atomic(unsigned int) atomic_uint_fast32_t;
typedef _Atomic(long long) atomic_int_fast64_t;
typedef _Atomic(unsigned long long) atomic_uint_fast64_t;
typedef _Atomic(__INTPTR_TYPE__) atomic_intptr_t;
typedef _Atomic(__UINTPTR_TYPE__) atomic_uintptr_t;
typedef _Atomic(__SIZE_TYPE__) atomic_size_t;
typedef _Atomic(__PTRDIFF_TYPE__) atomic_ptrdiff_t;
typedef _Atomic(long long) atomic_intmax_t;
typedef _Atomic(unsigned long long) atomic_uintmax_t;

#define atomic_store(obj, value) __c11_atomic_store(obj, value, __ATOMIC_SEQ_CST)
#define atomic_store_explicit __c11_atomic_store
#define atomic_load(obj) __c11_atomic_load(obj, __ATOMIC_SEQ_CST)
#define atomic_load_explicit __c11_atomic_load
#define atomic_exchange(obj, value) __c11_atomic_exchange(obj, value, __ATOMIC_SEQ_CST)
#define atomic_exchange_explicit __c11_atomic_exchange
#define atomic_compare_exchange_strong(obj, expected, desired) \
    __c11_atomic_compare_exchange_strong(obj, expected, desired, __ATOMIC_SEQ_CST, \
                                         __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_strong_explicit __c11_atomic_compare_exchange_strong
#define atomic_compare_exchange_weak(obj, expected, desired) \
    __c11_atomic_compare_exchange_weak(obj, expected, desired, __ATOMIC_SEQ_CST, \
                                       __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_weak_explicit __c11_atomic_compare_exchange_weak
#define atomic_fetch_add(obj, value) __c11_atomic_fetch_add(obj, value, __ATOMIC_SEQ_CST)
#define atomic_fetch_add_explicit __c11_atomic_fetch_add
#define atomic_fetch_sub(obj, value) __c11_atomic_fetch_sub(obj, value, __ATOMIC_SEQ_CST)
#define atomic_fetch_sub_explicit __c11_atomic_fetch_sub
#define atomic_fetch_or(obj, value) __c11_atomic_fetch_or(obj, value, __ATOMIC_SEQ_CST)
#define atomic_fetch_or_explicit __c11_atomic_fetch_or
#define atomic_fetch_xor(obj, value) __c11_atomic_fetch_xor(obj, value, __ATOMIC_SEQ_CST)
#define atomic_fetch_xor_explicit __c11_atomic_fetch_xor
#define atomic_fetch_and(obj, value) __c11_atomic_fetch_and(obj, value, __ATOMIC_SEQ_CST)
#define atomic_fetch_and_explicit __c11_atomic_fetch_and

typedef struct atomic_flag { atomic_bool _Value; } atomic_flag;
#define ATOMIC_FLAG_INIT { 0 }
#define atomic_flag_test_and_set(obj) __c11_atomic_exchange(&(obj)->_Value, 1, __ATOMIC_SEQ_CST)
#define atomic_flag_test_and_set_explicit(obj, order) __c11_atomic_exchange(&(obj)->_Value, 1, order)
#define atomic_flag_clear(obj) __c11_atomic_store(&(obj)->_Value, 0, __ATOMIC_SEQ_CST)
#define atomic_flag_clear_explicit(obj, order) __c11_atomic_store(&(obj)->_Value, 0, order)
#endif
