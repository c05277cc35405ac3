/* IEEE 754 binary16 helpers of the HSX VM core (bits in the low 16 bits of a word). */
#ifndef HSX_F16_H
#define HSX_F16_H

#include <stdint.h>

double hsx_f16_to_double(uint32_t bits);
uint32_t hsx_double_to_f16(double value);
uint32_t hsx_f16_add(uint32_t a, uint32_t b);
uint32_t hsx_f16_sub(uint32_t a, uint32_t b);
uint32_t hsx_f16_mul(uint32_t a, uint32_t b);
uint32_t hsx_f16_div(uint32_t a, uint32_t b);
uint32_t hsx_int_to_f16(uint32_t value);
uint32_t hsx_f16_to_int(uint32_t bits);

#endif
