/* rng.c: glibc's srand()/rand(), re-implemented with its state in a struct, its blocks
 * made on the scalar, AVX2 or AVX-512 path (rng.h). */
#include <string.h>

#include "rng.h"

/* The AVX2 path is compiled wherever gcc or clang targets x86 (the functions carry
 * their own target, so the rest of the core keeps the build's flags) and taken only on a
 * processor that has AVX2; -DPYWAR_RNG_SCALAR leaves it out. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) \
    && !defined(PYWAR_RNG_SCALAR)
#define RNG_HAVE_AVX2 1
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f")))
#else
#define RNG_HAVE_AVX2 0
#endif

#define RNG_END (RNG_HISTORY + RNG_BLOCK)

/* r[i] = r[i - 3] + r[i - 31] for i in [from, RNG_END), in the recurrence's three lanes
 * (i mod 3), each of which needs only its own last word and one from 31 back: the three
 * last words stay in registers, so that no sum waits for the store of the one before. */
static void Rng_GenerateScalar(uint32_t *r, int from)
{
    int i = from;
    uint32_t a = r[i - 3], b = r[i - 2], c = r[i - 1];
    for (; i + 3 <= RNG_END; i += 3) {
        a += r[i - 31];
        b += r[i - 30];
        c += r[i - 29];
        r[i] = a;
        r[i + 1] = b;
        r[i + 2] = c;
    }
    for (; i < RNG_END; i++) {
        r[i] = r[i - 31] + r[i - 3];
    }
}

#if RNG_HAVE_AVX2
/* The ceiling of log2(n), 0 for n = 1: without a loop, whose end a branch predictor
 * would miss for a new n at every shuffle. */
static int Rng_CeilLog2(uint32_t n)
{
    return n <= 1 ? 0 : 32 - __builtin_clz(n - 1);
}

/* mul for the moduli of a pile, 1 to RNG_SMALL_N, worked out by the compiler: no
 * division at each shuffle.  CEIL_LOG2 holds for n <= 64. */
#define CEIL_LOG2(n) (((n) > 1) + ((n) > 2) + ((n) > 4) + ((n) > 8) + ((n) > 16) + ((n) > 32))
#define MUL(n) (((UINT64_C(1) << (31 + CEIL_LOG2(n))) + (n) - 1) / (n))
#define MUL4(n) MUL(n), MUL(n + 1), MUL(n + 2), MUL(n + 3)
static const uint32_t SMALL_MUL[RNG_SMALL_N + 1] = {
    0, MUL4(1), MUL4(5), MUL4(9), MUL4(13), MUL4(17), MUL4(21), MUL4(25), MUL4(29),
    MUL4(33), MUL4(37), MUL4(41), MUL4(45), MUL4(49)};

/* The words sixteen at a time: r[i] = r[i-3] + r[i-31] with r[i-3] expanded six times
 * by the recurrence is r[i] = r[i-18] + r[i-31] + r[i-34] + r[i-37] + r[i-40] +
 * r[i-43] + r[i-46] (true for every i >= 49, the sequence's words 34 on being sums),
 * whose eighteen lanes are independent.  Every term of r[i..i+15] lies in the last
 * three vectors (z0 = r[i-48..i-33], z1, z2 = r[i-16..i-1]), kept in registers, and
 * each is one valignd of two of them; only the first two terms wait for the vector
 * made last, so the loop's chain is one join and two sums a vector.  (AVX2 has no
 * valignd across its two lanes: its form, r[i] = r[i-9] + r[i-31] + r[i-34] + r[i-37]
 * eight at a time, joined by a permute and a blend, made games slower than the scalar
 * lanes do: Rng_Generate.) */
#define Rng_Align(low, high, k) _mm512_alignr_epi32((high), (low), (k))
AVX512 static void Rng_GenerateAvx512(uint32_t *r, int from)
{
    int i = from;
    if (i + 16 <= RNG_END) {
        __m512i z0 = _mm512_loadu_si512(r + i - 48);
        __m512i z1 = _mm512_loadu_si512(r + i - 32);
        __m512i z2 = _mm512_loadu_si512(r + i - 16);
        for (; i + 16 <= RNG_END; i += 16) {
            __m512i far = _mm512_add_epi32(
                _mm512_add_epi32(Rng_Align(z0, z1, 14), Rng_Align(z0, z1, 11)),   /* -34, -37 */
                _mm512_add_epi32(Rng_Align(z0, z1, 8), Rng_Align(z0, z1, 5)));    /* -40, -43 */
            far = _mm512_add_epi32(far, Rng_Align(z0, z1, 2));                    /* -46 */
            __m512i made = _mm512_add_epi32(Rng_Align(z1, z2, 14),                /* -18 */
                                            _mm512_add_epi32(Rng_Align(z1, z2, 1), far));
            _mm512_storeu_si512(r + i, made);
            z0 = z1;
            z1 = z2;
            z2 = made;
        }
    }
    for (; i < RNG_END; i++) {
        r[i] = r[i - 31] + r[i - 3];
    }
}

/* The vector paths' reduction below n: v % n = v - n * q with the quotient
 * q = (v * mul) >> shift, shift = 31 + ceil(log2 n), mul = ceil(2^shift / n) < 2^32,
 * exact for every v < 2^31 (Granlund and Montgomery: mul * n - 2^shift < n <=
 * 2^(shift - 31)). */
typedef struct RngDivisor {
    int shift;
    uint64_t mul;
} RngDivisor;

static inline RngDivisor Rng_Divisor(uint32_t n)
{
    RngDivisor d;
    d.shift = 31 + Rng_CeilLog2(n);
    d.mul = n <= RNG_SMALL_N ? SMALL_MUL[n] : ((UINT64_C(1) << d.shift) + n - 1) / n;
    return d;
}

/* Words k .. count - 1 reduced one at a time: the rest of a block after its vectors. */
static inline void Rng_ReduceRest(const uint32_t *words, int k, int count, uint32_t n,
                                  RngDivisor d, uint32_t *out)
{
    for (; k < count; k++) {
        uint32_t v = words[k] >> 1;
        out[k] = v - n * (uint32_t)((v * d.mul) >> d.shift);
    }
}

/* count words reduced below n, eight at a time: one 32 x 32 -> 64-bit multiply per
 * lane, the even lanes and then the odd ones. */
AVX2 static void Rng_ReduceAvx2(const uint32_t *words, int count, uint32_t n, uint32_t *out)
{
    RngDivisor d = Rng_Divisor(n);
    const __m256i muls = _mm256_set1_epi32((int)(uint32_t)d.mul);
    const __m256i ns = _mm256_set1_epi32((int)n);
    const __m128i shifts = _mm_cvtsi32_si128(d.shift);
    int k = 0;
    for (; k + 8 <= count; k += 8) {
        __m256i v = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(words + k)), 1);
        __m256i even = _mm256_srl_epi64(_mm256_mul_epu32(v, muls), shifts);
        __m256i odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(v, 32), muls),
                                       shifts);
        __m256i q = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xaa);
        _mm256_storeu_si256((__m256i *)(out + k),
                            _mm256_sub_epi32(v, _mm256_mullo_epi32(q, ns)));
    }
    Rng_ReduceRest(words, k, count, n, d, out);
}

/* The same reduction sixteen words at a time. */
/* Measured (2026-12-02, Zen 4; timed in turn, pinned, as bench/pairs.py times them):
 * sixteen at a time here, where the AVX2 path reduces eight, takes smu 0.926 of the
 * time (15 pairs).
 *   python bench/pairs.py --pairs 15 BEFORE AFTER -- 40000 1 0 0 0 0 0 0 10000000 1 2 13 4 0 */
AVX512 static void Rng_ReduceAvx512(const uint32_t *words, int count, uint32_t n, uint32_t *out)
{
    RngDivisor d = Rng_Divisor(n);
    const __m512i muls = _mm512_set1_epi32((int)(uint32_t)d.mul);
    const __m512i ns = _mm512_set1_epi32((int)n);
    const __m128i shifts = _mm_cvtsi32_si128(d.shift);
    int k = 0;
    for (; k + 16 <= count; k += 16) {
        __m512i v = _mm512_srli_epi32(_mm512_loadu_si512(words + k), 1);
        __m512i even = _mm512_srl_epi64(_mm512_mul_epu32(v, muls), shifts);
        __m512i odd = _mm512_srl_epi64(_mm512_mul_epu32(_mm512_srli_epi64(v, 32), muls),
                                       shifts);
        __m512i q = _mm512_mask_blend_epi32(0xaaaa, even, _mm512_slli_epi64(odd, 32));
        _mm512_storeu_si512(out + k, _mm512_sub_epi32(v, _mm512_mullo_epi32(q, ns)));
    }
    Rng_ReduceRest(words, k, count, n, d, out);
}
#endif

int Rng_Usable(int path)
{
    switch (path) {
    case PYWAR_RNG_PATH_BEST:
    case PYWAR_RNG_PATH_SCALAR:
        return 1;
#if RNG_HAVE_AVX2
    case PYWAR_RNG_PATH_AVX2:
        return __builtin_cpu_supports("avx2") != 0;
    case PYWAR_RNG_PATH_AVX512:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f");
#endif
    default:
        return 0;
    }
}

/* Whole games choose the path (bench/test_bench.py, test_rng_paths: each path's time over
 * the best's, CPU time, the median of 9 rounds in turn).  On AVX2 (2026-12-06, Zen 3, 2
 * cores shared at load 6 to 11, three runs): scalar takes smu 1.41 to 1.56 of AVX2's
 * time (its draws reduced one at a time, its small piles swapped in memory), and iofall
 * 0.92 to 1.07 and rustwar 0.99 to 1.03, the two paths making their words alike
 * (Rng_Generate).  AVX-512 is taken where the processor has it on the generator's
 * figures alone (2026-12-02, Zen 4; time-stamp ticks a word on blocks of 512: scalar
 * 0.61 to 0.67, AVX-512 0.47 to 0.48, and draws reduced sixteen at a time): no machine
 * with it has timed whole games on each path yet, which the same benchmark does there
 * (bench/report.py marks a path faster than the best a missed target).
 * tests/test_rng_paths.py holds each path to glibc's rand().
 *   pytest bench/test_bench.py -k rng_paths --benchmark-json=paths.json */
int Rng_BestPath(void)
{
    if (Rng_Usable(PYWAR_RNG_PATH_AVX512)) {
        return PYWAR_RNG_PATH_AVX512;
    }
    return Rng_Usable(PYWAR_RNG_PATH_AVX2) ? PYWAR_RNG_PATH_AVX2 : PYWAR_RNG_PATH_SCALAR;
}

/* The AVX2 path makes its words as the scalar one does: the recurrence eight at a time
 * in 256-bit registers (r[i] = r[i-9] + r[i-31] + r[i-34] + r[i-37], the vectors joined
 * across lanes by a permute and a blend) ran more instructions and made whole games no
 * faster (Zen 3, 2026-12-06, callgrind: iofall 1.016 and smu 1.052 of the instructions
 * of AVX2's draws with scalar words, 20,000 and 4,000 games; timed in turn as
 * Rng_BestPath's figures: iofall 0.95 to 1.05 of the time, smu 0.87 to 1.01, with the
 * machine shared; on Zen 4 its words took 0.67 to 0.73 ticks, the scalar lanes' 0.61
 * to 0.67), so AVX2 keeps only its reduction of draws (Rng_Draws). */
static void Rng_Generate(Rng *rng, int from)
{
#if RNG_HAVE_AVX2
    if (rng->path == PYWAR_RNG_PATH_AVX512) {
        Rng_GenerateAvx512(rng->r, from);
        return;
    }
#endif
    Rng_GenerateScalar(rng->r, from);
}

/* Move the words not yet handed out, and the RNG_HISTORY before them, to the front,
 * and make new words after them. */
void Rng_Refill(Rng *rng)
{
    uint32_t *r = rng->r;
    int keep = RNG_END - (rng->next - RNG_HISTORY);
    memmove(r, r + rng->next - RNG_HISTORY, (size_t)keep * sizeof *r);
    Rng_Generate(rng, keep);
    rng->next = RNG_HISTORY;
}

int Rng_SeedPath(Rng *rng, uint32_t seed, int path)
{
    int usable = Rng_Usable(path);
    /* glibc: seed 0 is seed 1, and the seed is read as a signed 32-bit word */
    long long word = (int32_t)(seed == 0 ? 1u : seed);
    uint32_t *r = rng->r;
    path = path == PYWAR_RNG_PATH_BEST ? Rng_BestPath() : path;
    rng->path = usable ? path : PYWAR_RNG_PATH_SCALAR;
    r[0] = (uint32_t)word;
    for (int i = 1; i < RNG_DEGREE; i++) {
        long long hi = word / 127773;
        long long lo = word % 127773;
        word = 16807 * lo - 2836 * hi;
        if (word < 0) {
            word += 2147483647;
        }
        r[i] = (uint32_t)word;
    }
    for (int i = RNG_DEGREE; i < 34; i++) {
        r[i] = r[i - RNG_DEGREE];
    }
    for (int i = 34; i < RNG_HISTORY; i++) {
        r[i] = r[i - 31] + r[i - 3];
    }
    /* r[i] is the sequence's i-th word; glibc throws away the first 310 outputs, r[34..343]. */
    Rng_Generate(rng, RNG_HISTORY);
    rng->next = 34 + 310;
    return usable ? 0 : -1;
}

void Rng_Seed(Rng *rng, uint32_t seed)
{
    Rng_SeedPath(rng, seed, PYWAR_RNG_PATH_BEST);
}

uint32_t Rng_Rand(Rng *rng)
{
    if (rng->next == RNG_END) {
        Rng_Refill(rng);
    }
    return rng->r[rng->next++] >> 1;
}

/* Lemire's fastmod constants for n = 1..52, worked out by the compiler. */
#define MAGIC(n) (UINT64_MAX / (n) + 1)
#define MAGIC4(n) MAGIC(n), MAGIC(n + 1), MAGIC(n + 2), MAGIC(n + 3)
static const uint64_t SMALL_MAGIC[RNG_SMALL_N + 1] = {
    0, MAGIC4(1), MAGIC4(5), MAGIC4(9), MAGIC4(13), MAGIC4(17), MAGIC4(21), MAGIC4(25),
    MAGIC4(29), MAGIC4(33), MAGIC4(37), MAGIC4(41), MAGIC4(45), MAGIC4(49)};

RngModulus Rng_Modulus(uint32_t n)
{
    RngModulus m;
    m.n = n;
    m.magic = n <= RNG_SMALL_N ? SMALL_MAGIC[n] : UINT64_MAX / n + 1;
    return m;
}

RngModulus Rng_SmallModulus(uint32_t n)
{
    RngModulus m;
    m.n = n;
    m.magic = SMALL_MAGIC[n];
    return m;
}

uint32_t Rng_Below(Rng *rng, uint32_t n)
{
    RngModulus m = Rng_Modulus(n);
    return Rng_BelowModulus(rng, &m);
}

uint32_t Rng_Reduce(uint32_t value, const RngModulus *m)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 Wide;
    uint64_t low = m->magic * value;
    return (uint32_t)(((Wide)low * m->n) >> 64);
#else
    return value % m->n;
#endif
}

uint32_t Rng_BelowModulus(Rng *rng, const RngModulus *m)
{
    return Rng_Reduce(Rng_Rand(rng), m);
}

void Rng_Draws(Rng *rng, int count, uint32_t n, uint32_t *out)
{
    const uint32_t *words = Rng_Words(rng, count);
#if RNG_HAVE_AVX2
    if (rng->path == PYWAR_RNG_PATH_AVX512) {
        Rng_ReduceAvx512(words, count, n, out);
        return;
    }
    if (rng->path == PYWAR_RNG_PATH_AVX2) {
        Rng_ReduceAvx2(words, count, n, out);
        return;
    }
#endif
    RngModulus m = Rng_Modulus(n);
    for (int k = 0; k < count; k++) {
        out[k] = Rng_Reduce(words[k] >> 1, &m);
    }
}
