/* binary32/binary64 and 64-bit conversions of the HSX VM core, on raw bits.
 * Semantics: src/hsx/isa/fp.py (the soft-float routines' results, NaN as there). */
#ifndef HSX_FP_H
#define HSX_FP_H

#include <stdint.h>

uint32_t hsx_fadds(uint32_t a, uint32_t b);
uint32_t hsx_fsubs(uint32_t a, uint32_t b);
uint32_t hsx_fmuls(uint32_t a, uint32_t b);
uint32_t hsx_fdivs(uint32_t a, uint32_t b);
uint32_t hsx_fcmps(uint32_t a, uint32_t b);          /* the PSW of the compare */
uint64_t hsx_dadd(uint64_t a, uint64_t b);
uint64_t hsx_dsub(uint64_t a, uint64_t b);
uint64_t hsx_dmul(uint64_t a, uint64_t b);
uint64_t hsx_ddiv(uint64_t a, uint64_t b);
uint32_t hsx_dcmp(uint64_t a, uint64_t b);
uint64_t hsx_s2d(uint32_t a);
uint32_t hsx_d2s(uint64_t a);
uint32_t hsx_i2s(int64_t v);
uint32_t hsx_u2s(uint64_t v);
uint64_t hsx_i2d(int64_t v);
uint64_t hsx_u2d(uint64_t v);
uint64_t hsx_s2int(uint32_t a, int bits, int is_signed);   /* truncate, as fp.py */
uint64_t hsx_d2int(uint64_t a, int bits, int is_signed);

#endif
