/* HSX C executive: the value and command registries' internals, shared by
 * hsx_registry.c (names, access, descriptor chains), hsx_values.c and hsx_commands.c.
 * Nothing else includes it. */
#ifndef HSX_REGISTRY_H
#define HSX_REGISTRY_H

#include "hsx_kernel.h"

#define GROUP_ALL 0xFFu
#define NONE 0xFFFFu
#define NAME_MAX_BYTES 63u
#define HELP_MAX_BYTES 255u
#define AUTH_PUBLIC 0
#define AUTH_USER 1                     /* a host caller: the protocol's default auth */
#define HOST_PID 0u

/* statuses of SVC modules 0x07 and 0x08 (docs/values.md "Status codes") */
enum { V_OK, V_ENOENT, V_EPERM, V_ENOSPC, V_EINVAL, V_EEXIST, V_EBUSY, C_ENOASYNC = 6, C_EFAIL = 7 };

/* What a descriptor chain or a metadata record gives an entry. */
typedef struct hsx_rg_desc {
    const char *text[3];            /* name, group name, unit (commands: help) */
    uint32_t len[3];
    uint16_t eps, min, max, key, debounce, rate;
} hsx_rg_desc;

struct hsx_rg_chain_text { char a[NAME_MAX_BYTES + 1], b[NAME_MAX_BYTES + 1], c[HELP_MAX_BYTES + 1]; };

/* The head a value and a command begin with: the table functions below serve both. */
typedef struct hsx_rg_entry {
    uint32_t owner;
    uint16_t oid, strings;              /* strings: its block in the name pool, or NONE */
    uint8_t used, flags, auth, has;     /* has: which of its three strings it has */
} hsx_rg_entry;

/* A registry: `count` entries of `size` bytes, each beginning with its head. */
typedef struct hsx_rg_table {
    void *entries;
    uint16_t size, count;
} hsx_rg_table;
extern const hsx_rg_table hsx_rg_values, hsx_rg_commands;

hsx_rg_entry *hsx_rg_find(const hsx_rg_table *tb, uint32_t oid);       /* used, or NULL */
/* The used entry with the smallest OID >= *cursor, which moves past it; NULL: none. */
hsx_rg_entry *hsx_rg_next(const hsx_rg_table *tb, uint32_t *cursor);
uint32_t hsx_rg_count(const hsx_rg_table *tb);                          /* used entries */
/* REGISTER's and a record's shared checks in the reference's order (`invalid`: the
 * caller's own EINVAL before EEXIST); zeroes *e (size bytes) and fills its head. */
int hsx_rg_prepare(const hsx_rg_table *tb, hsx_rg_entry *e, uint32_t owner, uint32_t group,
                   uint32_t id, uint32_t flags, uint32_t all_flags, uint32_t auth,
                   const hsx_rg_desc *d, int invalid);
int hsx_rg_add(const hsx_rg_table *tb, const hsx_rg_entry *e, const hsx_rg_desc *d);
void hsx_rg_release(const hsx_rg_table *tb, uint32_t pid);              /* pid's entries go */

void hsx_rg_init(void);
uint32_t hsx_rg_block_size(const hsx_rg_desc *d);
/* An entry's strings into the pool: the block, NONE without strings, -1 when full. */
int32_t hsx_rg_names_add(const hsx_rg_desc *d, uint8_t *has);
const char *hsx_rg_string_at(uint16_t block, uint8_t has, int index);   /* NULL: none */
void hsx_rg_names_remove(uint16_t block);
uint32_t hsx_rg_names_free(void);

double hsx_rg_f16(uint16_t raw);
int hsx_rg_descriptor_problem(const hsx_rg_desc *d, int is_command);    /* 1: EINVAL */
int hsx_rg_may_access(uint32_t owner, uint8_t level, uint32_t caller, int caller_auth);
/* A REGISTER chain at ptr: 1, 0 for EINVAL, -1 after a fault. */
int hsx_rg_decode_chain(hsx_tcb *t, uint32_t ptr, int commands_chain, hsx_rg_desc *d,
                        struct hsx_rg_chain_text *text);
uint32_t hsx_rg_be16(const uint8_t *p);
void hsx_rg_record_strings(const uint8_t *sec, const uint32_t off[3], hsx_rg_desc *d);
hsx_status hsx_rg_refuse(hsx_status kind, int status);                  /* with the detail */
int hsx_rg_named(const char *name, const char *entry_name, const char *group);

/* An SVC's pointer argument: a fault, or EINVAL in R0 (r from a chain decode). */
#define FAULT_OR(r, einval) do { if ((r) < 0) return HSX_SVC_FAULT; if (!(r)) { \
    hsx_k_set_reg(t, 0, einval); return HSX_SVC_DONE; } } while (0)

#endif
