/* assert.h: a failed assert prints "file:line: function: Assertion `expr' failed."
 * to stderr and calls abort().  Not include-guarded: NDEBUG may change between
 * inclusions. */
#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
void __hsx_assert_fail(const char *expr, const char *file, int line, const char *func)
    __attribute__((noreturn));
#define assert(expr) ((expr) ? (void)0 : __hsx_assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif
#if __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#undef static_assert
#define static_assert _Static_assert
#endif
