// kernels.c - the `kernels` variant of bench_a64: ordinary compiled code with an ordinary branch
// mix, run by loop.S (-DKERNELS) in place of its loop. Freestanding C (no libc), compiled by
// Debian's aarch64-linux-gnu-gcc -O2 into the same raw image at 0x40080000 (bench/CMakeLists.txt):
//   - CRC-32 (reflected, polynomial 0xEDB88320) bitwise and table-driven: loops, shifts, loads;
//   - a recursive quicksort (BL/RET) finished by insertion sort, of an LCG-generated array;
//   - a bytecode interpreter whose switch is a jump table (BR);
//   - calls through a table of function pointers (BLR);
//   - string and memory loops (strlen, memcpy, memcmp alike).
// Every kernel checks its result against a value known independently of this code: a standard
// check value, two independent implementations agreeing, an invariant (sorted, same sum), or a
// closed form. kernels_run returns 0 when all checks pass, else the number of the first that
// failed (10 and up: loop.S's own checks are 1 to 6). The repetitions make about 3 x 10^8
// instructions.
//
// Built with -ffixed-x20 -ffixed-x28: loop.S's interrupt handler counts in x20, and its vectors
// write x28 (tests/platform/cpu/a64/common.inc); the handler saves the other registers it uses.
#include <stddef.h>
#include <stdint.h>

#define REPEAT 64

enum {
    CHECK_CRC_STANDARD = 10, // CRC-32 of "123456789" is 0xCBF43926 (the standard check value)
    CHECK_CRC_AGREE,         // bitwise and table-driven CRC-32 of the buffer agree
    CHECK_CRC_TABLE_STANDARD,
    CHECK_SORT_ORDER, // the sorted array is in order
    CHECK_SORT_SUM,   // and holds the same values (sum and xor)
    CHECK_SORT_XOR,
    CHECK_INTERP_SUM,   // the interpreted program: sum of 1..n = n (n + 1) / 2
    CHECK_INTERP_FACT,  // the interpreted program: 12! = 479001600
    CHECK_CALLS,        // the function pointer table: closed form (below)
    CHECK_STRLEN,       // strlen of strings of known lengths
    CHECK_MEMCMP_EQUAL, // a copy compares equal
    CHECK_MEMCMP_ORDER, // a byte changed compares by its value
    CHECK_STRCMP,       // strcmp of known strings
    CHECK_REPEATS,      // every repetition ran
};

// ---- helpers: the program has no libc --------------------------------------------------------

static uint32_t lcg_state;

static uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u; // Numerical Recipes' LCG
    return lcg_state;
}

// ---- CRC-32 ----------------------------------------------------------------------------------

static uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) {
            if (crc & 1)
                crc = (crc >> 1) ^ 0xEDB88320u;
            else
                crc >>= 1;
        }
    }
    return ~crc;
}

static uint32_t crc_table[256];

static void crc32_make_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32_table(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        crc = crc_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

#define CRC_BUF 4096
static uint8_t crc_buf[CRC_BUF];

static int kernel_crc(void)
{
    static const char check[] = "123456789";
    if (crc32_bitwise((const uint8_t *)check, 9) != 0xCBF43926u)
        return CHECK_CRC_STANDARD;
    crc32_make_table();
    if (crc32_table((const uint8_t *)check, 9) != 0xCBF43926u)
        return CHECK_CRC_TABLE_STANDARD;
    for (size_t i = 0; i < CRC_BUF; i++)
        crc_buf[i] = (uint8_t)(lcg_next() >> 24);
    if (crc32_bitwise(crc_buf, CRC_BUF) != crc32_table(crc_buf, CRC_BUF))
        return CHECK_CRC_AGREE;
    return 0;
}

// ---- sorting ---------------------------------------------------------------------------------

#define SORT_N 6000
static int32_t sort_buf[SORT_N];

static void insertion_sort(int32_t *a, long lo, long hi)
{
    for (long i = lo + 1; i <= hi; i++) {
        int32_t v = a[i];
        long j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

// Hoare's partition around the median of three; small ranges by insertion sort. Recursive on
// both sides (a call per partition: BL and RET).
__attribute__((noinline)) static void quicksort(int32_t *a, long lo, long hi)
{
    if (hi - lo < 16) {
        insertion_sort(a, lo, hi);
        return;
    }
    long mid = lo + (hi - lo) / 2;
    int32_t x = a[lo], y = a[mid], z = a[hi];
    int32_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
    long i = lo - 1, j = hi + 1;
    for (;;) {
        do
            i++;
        while (a[i] < pivot);
        do
            j--;
        while (a[j] > pivot);
        if (i >= j)
            break;
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    quicksort(a, lo, j);
    quicksort(a, j + 1, hi);
}

static int kernel_sort(void)
{
    int64_t sum = 0;
    uint32_t x = 0;
    for (long i = 0; i < SORT_N; i++) {
        int32_t v = (int32_t)lcg_next() >> 4;
        sort_buf[i] = v;
        sum += v;
        x ^= (uint32_t)v;
    }
    quicksort(sort_buf, 0, SORT_N - 1);
    int64_t sum_after = sort_buf[0];
    uint32_t x_after = (uint32_t)sort_buf[0];
    for (long i = 1; i < SORT_N; i++) {
        if (sort_buf[i - 1] > sort_buf[i])
            return CHECK_SORT_ORDER;
        sum_after += sort_buf[i];
        x_after ^= (uint32_t)sort_buf[i];
    }
    if (sum_after != sum)
        return CHECK_SORT_SUM;
    if (x_after != x)
        return CHECK_SORT_XOR;
    return 0;
}

// ---- a bytecode interpreter ------------------------------------------------------------------

// A register machine of 8 registers: op, a, b, c bytes per instruction.
enum op {
    OP_HALT,
    OP_LOADI, // r[a] = b | c << 8
    OP_ADD,   // r[a] = r[b] + r[c]
    OP_SUB,   // r[a] = r[b] - r[c]
    OP_MUL,   // r[a] = r[b] * r[c]
    OP_MOV,   // r[a] = r[b]
    OP_JNZ,   // if r[a] != 0: pc = b
    OP_JMP,   // pc = b
    OP_DEC,   // r[a] -= 1
    OP_INC,   // r[a] += 1
    OP_XOR,   // r[a] = r[b] ^ r[c]
    OP_SHL,   // r[a] = r[b] << c
};

__attribute__((noinline)) static int64_t interpret(const uint8_t *code, int64_t arg)
{
    int64_t r[8] = {arg, 0, 0, 0, 0, 0, 0, 0};
    unsigned pc = 0;
    for (;;) {
        const uint8_t *in = code + 4 * pc;
        pc++;
        switch ((enum op)in[0]) {
        case OP_HALT: return r[1];
        case OP_LOADI: r[in[1] & 7] = in[2] | (int64_t)in[3] << 8; break;
        case OP_ADD: r[in[1] & 7] = r[in[2] & 7] + r[in[3] & 7]; break;
        case OP_SUB: r[in[1] & 7] = r[in[2] & 7] - r[in[3] & 7]; break;
        case OP_MUL: r[in[1] & 7] = r[in[2] & 7] * r[in[3] & 7]; break;
        case OP_MOV: r[in[1] & 7] = r[in[2] & 7]; break;
        case OP_JNZ:
            if (r[in[1] & 7] != 0)
                pc = in[2];
            break;
        case OP_JMP: pc = in[2]; break;
        case OP_DEC: r[in[1] & 7]--; break;
        case OP_INC: r[in[1] & 7]++; break;
        case OP_XOR: r[in[1] & 7] = r[in[2] & 7] ^ r[in[3] & 7]; break;
        case OP_SHL: r[in[1] & 7] = r[in[2] & 7] << (in[3] & 63); break;
        default: return -1;
        }
    }
}

// r1 = sum of 1..r0 (counting r0 down), through a detour of MOV, XOR and JMP each iteration.
static const uint8_t prog_sum[] = {
    OP_LOADI, 1, 0, 0, // 0: r1 = 0
    OP_LOADI, 3, 0, 0, // 1: r3 = 0
    OP_ADD,   1, 1, 0, // 2: r1 += r0
    OP_MOV,   2, 0, 0, // 3: r2 = r0
    OP_XOR,   2, 2, 3, // 4: r2 ^= 0
    OP_JMP,   0, 6, 0, // 5: goto 6
    OP_DEC,   0, 0, 0, // 6: r0--
    OP_JNZ,   0, 2, 0, // 7: if r0 goto 2
    OP_HALT,  0, 0, 0,
};

// r1 = r0! (multiplying r0 down to 1), r4 counts the steps by INC.
static const uint8_t prog_fact[] = {
    OP_LOADI, 1, 1, 0, // 0: r1 = 1
    OP_LOADI, 4, 0, 0, // 1: r4 = 0
    OP_MUL,   1, 1, 0, // 2: r1 *= r0
    OP_INC,   4, 0, 0, // 3: r4++
    OP_SHL,   5, 4, 1, // 4: r5 = r4 << 1
    OP_SUB,   5, 5, 4, // 5: r5 -= r4
    OP_DEC,   0, 0, 0, // 6: r0--
    OP_JNZ,   0, 2, 0, // 7: if r0 goto 2
    OP_HALT,  0, 0, 0,
};

static int kernel_interp(void)
{
    const int64_t n = 20000;
    if (interpret(prog_sum, n) != n * (n + 1) / 2)
        return CHECK_INTERP_SUM;
    for (int k = 0; k < 200; k++)
        if (interpret(prog_fact, 12) != 479001600)
            return CHECK_INTERP_FACT;
    return 0;
}

// ---- calls through function pointers ---------------------------------------------------------

typedef int64_t (*binop)(int64_t, int64_t);

__attribute__((noinline)) static int64_t f_add(int64_t a, int64_t b)
{
    return a + b;
}
__attribute__((noinline)) static int64_t f_sub(int64_t a, int64_t b)
{
    return a - b;
}
__attribute__((noinline)) static int64_t f_addsq(int64_t a, int64_t b)
{
    return a + b * b;
}
__attribute__((noinline)) static int64_t f_subsq(int64_t a, int64_t b)
{
    return a - b * b;
}

// Written at run time so that the compiler cannot see through the calls.
static binop ops[4];

// acc over i = 1..4m of ops[i % 4](acc, i): i % 4 == 1 adds i, 2 adds i^2, 3 subtracts i, 0
// subtracts i^2. Group k (i = 4k+1 .. 4k+4) adds (4k+1) + (4k+2)^2 - (4k+3) - (4k+4)^2
// = -2 - 2 (8k + 6) = -16k - 14; over k < m: -8 m (m - 1) - 14 m.
static int kernel_calls(void)
{
    ops[0] = f_subsq;
    ops[1] = f_add;
    ops[2] = f_addsq;
    ops[3] = f_sub;
    const int64_t m = 10000;
    int64_t acc = 0;
    for (int64_t i = 1; i <= 4 * m; i++)
        acc = ops[i & 3](acc, i);
    if (acc != -8 * m * (m - 1) - 14 * m)
        return CHECK_CALLS;
    return 0;
}

// ---- strings and memory ----------------------------------------------------------------------

__attribute__((noinline)) static size_t my_strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

__attribute__((noinline)) static void my_memcpy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
}

__attribute__((noinline)) static int my_memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *p = a, *q = b;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] < q[i] ? -1 : 1;
    return 0;
}

__attribute__((noinline)) static int my_strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (int)(uint8_t)*a - (int)(uint8_t)*b;
}

#define STR_MAX 1024
static char str_a[STR_MAX + 1], str_b[STR_MAX + 1];

static int kernel_strings(void)
{
    for (size_t len = 0; len <= STR_MAX; len += 37) {
        for (size_t i = 0; i < len; i++)
            str_a[i] = (char)('a' + i % 26);
        str_a[len] = 0;
        if (my_strlen(str_a) != len)
            return CHECK_STRLEN;
        my_memcpy(str_b, str_a, len + 1);
        if (my_memcmp(str_a, str_b, len + 1) != 0 || my_strcmp(str_a, str_b) != 0)
            return CHECK_MEMCMP_EQUAL;
        if (len > 0) {
            str_b[len / 2]++; // one byte larger: a < b
            if (my_memcmp(str_a, str_b, len + 1) != -1 || my_memcmp(str_b, str_a, len + 1) != 1)
                return CHECK_MEMCMP_ORDER;
            if (my_strcmp(str_a, str_b) != -1)
                return CHECK_STRCMP;
        }
    }
    return 0;
}

// ---- the entry -------------------------------------------------------------------------------

int kernels_run(void)
{
    int (*const kernels[])(void) = {kernel_crc, kernel_sort, kernel_interp, kernel_calls,
                                    kernel_strings};
    lcg_state = 12345;
    int done = 0;
    for (int r = 0; r < REPEAT; r++) {
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            int failed = kernels[k]();
            if (failed)
                return failed;
        }
        done++;
    }
    return done == REPEAT ? 0 : CHECK_REPEATS;
}
