/* Values registered at run time with descriptor chains, and the checks of a SET in
 * order (docs/values.md): unknown OID, range, epsilon, BOOL, rate limit; refused
 * registrations and chains; a subscription's notifications; LIST, LOOKUP, PERSIST. */
#include <hsx_mailbox.h>
#include <hsx_value.h>
#include <stdio.h>

#define F16(x) ((unsigned short)(x))
enum { ONE = 0x3C00, HALF = 0x3800, FIFTY = 0x5240, FIFTY_HALF = 0x5250, FIFTY_TWO = 0x5280,
       HUNDRED = 0x5640, TWO_HUNDRED = 0x5A40, SIXTY = 0x5380, NEG_ZERO = 0x8000 };

static unsigned reg(unsigned group, unsigned id, unsigned flags, const void *chain) {
    unsigned status, oid;
    __asm__ volatile("SVC 7, 0" : "=r"(status), "=r"(oid)
                     : "r"(group), "r"(id), "r"(flags), "r"((unsigned)chain) : "memory");
    printf("register %u:%u flags 0x%x: %u (oid 0x%x)\n", group, id, flags, status,
           status ? 0 : oid);
    return oid;
}

static void set(unsigned oid, unsigned bits) {
    unsigned s = hsx_val_set_raw(oid, bits, 0);
    unsigned got, status;
    __asm__ volatile("SVC 7, 2" : "=r"(got), "=r"(status) : "r"(oid) : "memory");
    printf("set 0x%x = 0x%04x: %u -> now 0x%04x (get status %u)\n", oid, bits, s,
           status ? 0 : got, status);
}

static const char rpm[] = "rpm", motor[] = "motor", bad_utf8[] = "\xff\xfe";
static unsigned char name_node[6], unit_node[12], range_node[8], group_node[6];
static unsigned char rate_node[12], persist_node[8], loop_node[6], dup_a[6], dup_b[6];
static unsigned char odd_node[6], badunit_node[12], badname_node[6];

/* (addresses go through a volatile: split into bytes at compile time they would be
 * constants the linker cannot express) */
static void node(unsigned char *n, unsigned type, const void *next) {
    n[0] = (unsigned char)type;
    n[1] = 0;
    volatile unsigned a = next ? (unsigned)next : 0xFFFF;
    n[2] = (unsigned char)a;
    n[3] = (unsigned char)(a >> 8);
}

static void field(unsigned char *n, int at, unsigned value) {
    volatile unsigned v = value;
    n[at] = (unsigned char)v;
    n[at + 1] = (unsigned char)(v >> 8);
}

/* LIST with `selector` (R1: a group, 0xFF all; bit 8 every value the caller may read). */
static void list_values(unsigned selector) {
    unsigned short list[8];
    unsigned status, count;
    __asm__ volatile("SVC 7, 4" : "=r"(status), "=r"(count) : "r"(selector), "r"(list), "r"(8)
                     : "memory");
    printf("list 0x%x: %u, %u values:", selector, status, count);
    for (unsigned i = 0; i < count; i++)
        printf(" 0x%04x", list[i]);
    printf("\n");
}

int main(void) {
    unsigned box, status;
    reg(1, 1, 0, 0);
    reg(1, 1, 0, 0);                              /* EEXIST */
    reg(0xFF, 1, 0, 0);                           /* GROUP_ALL: EINVAL */
    reg(1, 9, 0x20, 0);                           /* unknown flag: EINVAL */
    reg(1, 9, HSX_VAL_FLAG_PERSIST, 0);           /* PERSIST without a key: EINVAL */

    node(name_node, 2, unit_node);
    field(name_node, 4, (unsigned)rpm);
    node(unit_node, 3, range_node);
    unit_node[4] = 'r'; unit_node[5] = 'p'; unit_node[6] = 'm'; unit_node[7] = 0;
    field(unit_node, 8, ONE);                     /* epsilon 1.0 */
    node(range_node, 4, group_node);
    field(range_node, 4, 0);
    field(range_node, 6, HUNDRED);                /* [0, 100] */
    node(group_node, 1, 0);
    field(group_node, 4, (unsigned)motor);
    unsigned rpm_oid = reg(1, 2, 0, name_node);
    set(rpm_oid, FIFTY);
    set(rpm_oid, TWO_HUNDRED);                    /* out of range: EINVAL */
    set(rpm_oid, FIFTY_HALF);                     /* within epsilon: OK, unchanged */
    set(rpm_oid, FIFTY_TWO);
    set(0x0909, ONE);                             /* ENOENT */

    unsigned b = reg(1, 3, HSX_VAL_FLAG_BOOL, 0);
    set(b, HALF);                                 /* BOOL: 1.0 */
    set(b, NEG_ZERO);                             /* -0 is false: 0 */

    node(rate_node, 3, 0);
    field(rate_node, 10, 60000);                  /* one change a minute */
    unsigned r = reg(1, 4, 0, rate_node);
    set(r, ONE);
    set(r, HALF);                                 /* EBUSY */
    set(r, ONE);                                  /* no change: OK */

    /* notifications: one 6-byte message per change */
    status = hsx_val_sub(rpm_oid, "app:notes", &box);
    printf("subscribe: %u\n", status);
    set(rpm_oid, SIXTY);
    set(rpm_oid, SIXTY);
    for (int i = 0; i < 2; i++) {
        unsigned char note[8];
        hsx_mbx_info info;
        status = hsx_mbx_recv(box, note, sizeof note, HSX_MBX_TIMEOUT_POLL, &info);
        if (status == HSX_MBX_STATUS_OK)
            printf("note: oid 0x%02x%02x old 0x%02x%02x new 0x%02x%02x (%u bytes)\n", note[1],
                   note[0], note[3], note[2], note[5], note[4], info.length);
        else
            printf("note status %u\n", status);
    }
    printf("subscribe to nothing: %u\n", hsx_val_sub(0x0999, "app:notes", &box));

    list_values(0xFF);
    list_values(2);                               /* a group with none of them */
    list_values(0x100 | 1);                       /* LIST_VISIBLE, group 1 */
    unsigned oid;
    printf("lookup 1:2: %u", hsx_val_lookup(1, 2, &oid));
    printf(" oid 0x%x; lookup 7:7: %u\n", oid, hsx_val_lookup(7, 7, &oid));

    /* persistence modes (this executive keeps no store: values behave as volatile) */
    node(persist_node, 5, 0);
    field(persist_node, 4, 7);
    field(persist_node, 6, 0);
    unsigned p = reg(2, 1, HSX_VAL_FLAG_PERSIST, persist_node);
    printf("persist modes: %u %u %u %u, without key: %u\n", hsx_val_persist(p, 0),
           hsx_val_persist(p, 1), hsx_val_persist(p, 2), hsx_val_persist(p, 3),
           hsx_val_persist(rpm_oid, 2));

    /* chains that are refused */
    node(loop_node, 2, loop_node);
    field(loop_node, 4, 0);
    reg(3, 1, 0, loop_node);                      /* loops */
    node(dup_a, 2, dup_b);
    node(dup_b, 2, 0);
    reg(3, 2, 0, dup_a);                          /* NAME twice */
    node(odd_node, 0x10, 0);
    reg(3, 3, 0, odd_node);                       /* a command node in a value chain */
    node(badunit_node, 3, 0);
    badunit_node[4] = 'a'; badunit_node[5] = 0; badunit_node[6] = 'b';
    reg(3, 4, 0, badunit_node);                   /* NUL inside the unit */
    node(badname_node, 2, 0);
    field(badname_node, 4, (unsigned)bad_utf8);
    reg(3, 5, 0, badname_node);                   /* not UTF-8 */
    return 0;
}
