/* rng_driver.c: the generator of csrc/common/rng.c on a path of its own choosing, for
 * tests/test_rng_paths.py, which holds what it prints against glibc's rand().
 *
 * usage: rng_driver PATH SEED OP...   (PATH a number of enum PywarRngPath: 1 scalar,
 *                                      2 AVX2, 3 AVX-512; 0 the best here)
 *        rng_driver best              (prints Rng_BestPath(): the path games take here)
 * Each OP is rK (the next K values of Rng_Rand) or dC:N (Rng_Draws of C draws below N).
 * prints: every value made, in order, on one line; or 'unavailable' (exit 0) for a
 * path this machine cannot run. */
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "rng.h"

int main(int argc, char **argv)
{
    Rng rng;
    uint32_t draws[RNG_BLOCK];
    if (argc == 2 && strcmp(argv[1], "best") == 0) {
        printf("%d\n", Rng_BestPath());
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: %s PATH SEED OP...\n", argv[0]);
        return 2;
    }
    if (Rng_SeedPath(&rng, (uint32_t)strtoul(argv[2], NULL, 10), atoi(argv[1])) != 0) {
        printf("unavailable\n");
        return 0;
    }
    for (int a = 3; a < argc; a++) {
        const char *op = argv[a];
        if (op[0] == 'r') {
            for (long k = atol(op + 1); k > 0; k--) {
                printf("%u ", Rng_Rand(&rng));
            }
        } else {
            char *colon;
            int count = (int)strtol(op + 1, &colon, 10);
            uint32_t n = (uint32_t)strtoul(colon + 1, NULL, 10);
            if (count < 0 || count > RNG_BLOCK || n == 0) {
                fprintf(stderr, "%s: bad op %s\n", argv[0], op);
                return 2;
            }
            Rng_Draws(&rng, count, n, draws);
            for (int k = 0; k < count; k++) {
                printf("%u ", draws[k]);
            }
        }
    }
    printf("\n");
    return 0;
}
