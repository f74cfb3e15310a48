/* The compiled unmasking curve called with random arguments under AddressSanitizer and
 * UndefinedBehaviorSanitizer (tests/core/methods/systems/test_native_memory.py builds and runs
 * it): shapes from 1 sample to 70, 1 feature to 120, fold counts, removals and rounds in and out
 * of range, all-zero and one-class data, folds out of range, C = 0. Every call must return a
 * status; a curve it returns must lie in 0..1. Prints "calls N ok N refused N". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int taveer_unmasking_curve(int n, int f, const double *x, const double *y, const int64_t *folds,
                           int k, int per_side, int rounds, double c, double *curve);

static uint64_t state = 88172645463325252ull;

static uint64_t next(void) { /* xorshift64: the same calls on every run */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 2000, ok = 0, refused = 0;
    for (long call = 0; call < calls; call++) {
        int n = 1 + next() % 70, f = 1 + next() % 120, k = 1 + next() % 12;
        int per_side = next() % 6, rounds = next() % 12;
        double *x = malloc(sizeof(double) * n * f), *y = malloc(sizeof(double) * n);
        int64_t *folds = malloc(sizeof(int64_t) * n);
        double *curve = malloc(sizeof(double) * (rounds > 0 ? rounds : 1));
        int density = next() % 4, all_zero = next() % 10 == 0, one_class = next() % 5 == 0;
        for (int i = 0; i < n * f; i++)
            x[i] = !all_zero && (int)(next() % 4) <= density ? (double)(next() % 30) : 0.0;
        for (int i = 0; i < n; i++) {
            y[i] = one_class || next() % 2 ? 1.0 : -1.0;
            folds[i] = next() % 50 == 0 ? (int64_t)(next() % 20) - 5 : (int64_t)(next() % k);
        }
        double c = next() % 10 == 0 ? 0.0 : 0.01 + (double)(next() % 100) / 10.0;
        int status = taveer_unmasking_curve(n, f, x, y, folds, k, per_side, rounds, c, curve);
        if (status == 0) {
            ok++;
            for (int r = 0; r < rounds; r++)
                if (!(curve[r] >= 0.0 && curve[r] <= 1.0)) {
                    printf("call %ld: curve value %g outside 0..1\n", call, curve[r]);
                    return 1;
                }
        } else {
            refused++;
        }
        free(x);
        free(y);
        free(folds);
        free(curve);
    }
    printf("calls %ld ok %ld refused %ld\n", calls, ok, refused);
    return 0;
}
