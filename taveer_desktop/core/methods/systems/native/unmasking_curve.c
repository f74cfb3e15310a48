/*
 * One unmasking run's degradation curve, compiled: the arithmetic of
 * ``unmasking.degradation_curves`` for one chunk set whose features outnumber its samples
 * (Generalised Unmasking's 60 chunks x 250 words; Unmasking on books), where the linear SVM is
 * solved in its representer form w = sum_i a_i x~_i through the Gram matrix of the augmented
 * samples (x~ = x with a constant 1 for the bias).
 *
 * The model and the solver are those of ``linear_svm`` and ``svm_newton`` (liblinear's
 * L2-regularised squared-hinge SVM; the finite Newton method of Keerthi and DeCoste 2005 with
 * an exact line search, the same starts and stopping rules); this file adds nothing to them.
 * What it changes is where the work is done: a fold model's active set is small (about 15 of 54
 * training chunks at the paper's settings), so every product with the Gram matrix runs over the
 * active samples only, and the weights of a round's fold models are summed as
 * sum_i (sum_q a_qi) x_i, once per round rather than once per fold. Two sums are done another
 * way than numpy does them: an active set's system is solved by Cholesky (numpy: LU of a padded
 * system), and the decision values come from the Gram matrix (numpy: from the weights) — so a
 * held-out chunk within rounding of the hyperplane can fall on the other side (measured: 1
 * curve point in 7,200; docs/method.md). Numbers are summed in a fixed order (built with
 * -ffp-contract=off and no -ffast-math), so a given input gives the same curve on any machine
 * with IEEE doubles.
 *
 * The samples must be whole numbers whose Gram sums stay below 2^52 (word counts): the Gram
 * matrix is then exact, and removing a feature subtracts its exact part (``exact_gram``).
 * The Python side (``native/__init__.py``) checks that before calling.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEWTON_STEPS 200
#define STEP_TOLERANCE 1e-10

enum { OK = 0, NOT_POSITIVE_DEFINITE = -1, NO_MEMORY = -2, BAD_ARGUMENTS = -3 };

typedef struct {
    int n;              /* samples */
    double ridge;       /* 1 / 2C */
    double c;
    const double *gram; /* n x n, symmetric */
    const double *y;
    double *system;     /* n x n: the active rows' Cholesky factor */
    double *solved;     /* n: the active rows' solution */
    int *rows;          /* n: the active samples */
    int *nonzero;       /* n: samples with a nonzero parameter */
    double *breaks;     /* n: line-search breakpoints */
    int *order;         /* n: the breakpoints' samples, sorted */
} Solver;

/* The Newton point of an active set: (K_AA + I/2C) a_A = y_A, a = 0 off A. */
static int newton_point(Solver *s, const unsigned char *active, double *a) {
    int n = s->n, m = 0;
    for (int i = 0; i < n; i++) {
        a[i] = 0.0;
        if (active[i]) s->rows[m++] = i;
    }
    double *l = s->system;
    for (int r = 0; r < m; r++) {
        const double *row = s->gram + (size_t)s->rows[r] * n;
        for (int t = 0; t <= r; t++) l[r * m + t] = row[s->rows[t]];
        l[r * m + r] += s->ridge;
    }
    for (int j = 0; j < m; j++) { /* Cholesky, L L^T, row by row */
        for (int i = j; i < m; i++) {
            double v = l[i * m + j];
            for (int p = 0; p < j; p++) v -= l[i * m + p] * l[j * m + p];
            if (i == j) {
                if (!(v > 0.0)) return NOT_POSITIVE_DEFINITE;
                l[j * m + j] = sqrt(v);
            } else {
                l[i * m + j] = v / l[j * m + j];
            }
        }
    }
    double *z = s->solved;
    for (int i = 0; i < m; i++) {
        double v = s->y[s->rows[i]];
        for (int p = 0; p < i; p++) v -= l[i * m + p] * z[p];
        z[i] = v / l[i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) { /* L^T z = v, column by column */
        z[i] /= l[i * m + i];
        for (int p = 0; p < i; p++) z[p] -= l[i * m + p] * z[i];
    }
    for (int i = 0; i < m; i++) a[s->rows[i]] = z[i];
    return OK;
}

/* out = K v, over the nonzero entries of v (K symmetric: its columns are its rows). */
static void gram_times(Solver *s, const double *v, double *out) {
    int n = s->n, nnz = 0;
    for (int i = 0; i < n; i++)
        if (v[i] != 0.0) s->nonzero[nnz++] = i;
    memset(out, 0, sizeof(double) * n);
    for (int t = 0; t < nnz; t++) {
        const double *column = s->gram + (size_t)s->nonzero[t] * n;
        double weight = v[s->nonzero[t]];
        for (int i = 0; i < n; i++) out[i] += column[i] * weight;
    }
}

/* The step t >= 0 minimising the objective along the direction (``svm_newton.exact_step``). */
static double exact_step(Solver *s, const unsigned char *train, const double *out,
                         const double *change, double w_dot_d, double d_dot_d) {
    double sm = 0.0, ss = 0.0;
    int count = 0;
    for (int i = 0; i < s->n; i++) {
        if (!train[i]) continue;
        double slack = 1.0 - s->y[i] * out[i], rate = s->y[i] * change[i];
        if (slack > 0) {
            sm += rate * slack;
            ss += rate * rate;
        }
        if ((rate > 0 && slack > 0) || (rate < 0 && slack <= 0)) {
            double at = slack / rate; /* sorted in as it comes: ties keep the lower sample first */
            int t = count++;
            while (t > 0 && s->breaks[s->order[t - 1]] > at) {
                s->order[t] = s->order[t - 1];
                t--;
            }
            s->breaks[i] = at;
            s->order[t] = i;
        }
    }
    for (int b = 0; b < count; b++) {
        int i = s->order[b];
        double t = s->breaks[i];
        double slack = 1.0 - s->y[i] * out[i], rate = s->y[i] * change[i];
        double toggle = (rate > 0 && slack > 0) ? -1.0 : 1.0;
        double next_sm = sm + toggle * (rate * slack), next_ss = ss + toggle * (rate * rate);
        if (w_dot_d + t * d_dot_d - 2.0 * s->c * (next_sm - t * next_ss) > 0) break;
        sm = next_sm;
        ss = next_ss;
    }
    double denominator = d_dot_d + 2.0 * s->c * ss;
    if (!(denominator > 0)) return 0.0;
    double root = (2.0 * s->c * sm - w_dot_d) / denominator;
    return root > 0 ? root : 0.0;
}

/* Marks the training samples inside the margin; returns whether the marks changed. */
static int mark_active(int n, const double *y, const unsigned char *train, const double *out,
                       unsigned char *active) {
    int changed = 0;
    for (int i = 0; i < n; i++) {
        unsigned char now = train[i] && y[i] * out[i] < 1.0;
        changed |= now != active[i];
        active[i] = now;
    }
    return changed;
}

/* One fold model: Newton steps from a (with outputs out and active set active) until the
 * active set settles, as ``svm_newton.newton`` (w = 0 at the first round; later rounds start at
 * the Newton point of the same fold's last active set). */
static int fit_fold(Solver *s, const unsigned char *train, const unsigned char *begun, double *a,
                    double *out, unsigned char *active, double *point, double *direction,
                    double *change) {
    int n = s->n, status;
    if (begun == NULL) {
        memset(a, 0, sizeof(double) * n);
        memset(out, 0, sizeof(double) * n);
        memcpy(active, train, (size_t)n);
    } else {
        memcpy(active, begun, (size_t)n);
        if ((status = newton_point(s, active, a)) != OK) return status;
        gram_times(s, a, out);
        if (!mark_active(n, s->y, train, out, active)) return OK;
    }
    for (int step = 0; step < MAX_NEWTON_STEPS; step++) {
        if ((status = newton_point(s, active, point)) != OK) return status;
        for (int i = 0; i < n; i++) direction[i] = point[i] - a[i];
        gram_times(s, direction, change);
        double w_dot_d = 0.0, d_dot_d = 0.0;
        for (int i = 0; i < n; i++) {
            w_dot_d += a[i] * change[i];
            d_dot_d += direction[i] * change[i];
        }
        double t = exact_step(s, train, out, change, w_dot_d, d_dot_d);
        double largest_step = 0.0, largest = 0.0;
        for (int i = 0; i < n; i++) {
            a[i] += t * direction[i];
            out[i] += t * change[i];
            double step_size = fabs(direction[i]), size = fabs(a[i]);
            if (step_size > largest_step) largest_step = step_size;
            if (size > largest) largest = size;
        }
        int changed = mark_active(n, s->y, train, out, active);
        if ((t >= 1.0 - 1e-12 && !changed) || largest_step <= STEP_TOLERANCE * (1.0 + largest))
            break;
    }
    gram_times(s, a, out); /* the outputs afresh from the parameters, not the running sum */
    mark_active(n, s->y, train, out, active);
    return OK;
}

/* Whether feature a sorts before feature b: by weight, ties by index (a stable ascending sort). */
static int before(const double *weights, int a, int b) {
    return weights[a] < weights[b] || (weights[a] == weights[b] && a < b);
}

/* The features to remove: of those alive, the per_side first and the per_side last in the
 * order ``before`` (``unmasking.strongest_features``), each kept in a short sorted list. */
static void strongest(int f, const unsigned char *alive, const double *weights, int per_side,
                      int *removed) {
    int *low = removed, *high = removed + per_side, lows = 0, highs = 0;
    for (int j = 0; j < f; j++) {
        if (!alive[j]) continue;
        if (lows < per_side || before(weights, j, low[lows - 1])) {
            int t = lows < per_side ? lows++ : per_side - 1;
            while (t > 0 && before(weights, j, low[t - 1])) {
                low[t] = low[t - 1];
                t--;
            }
            low[t] = j;
        }
        if (highs < per_side || before(weights, high[highs - 1], j)) {
            int t = highs < per_side ? highs++ : per_side - 1;
            while (t > 0 && before(weights, high[t - 1], j)) {
                high[t] = high[t - 1];
                t--;
            }
            high[t] = j;
        }
    }
}

/*
 * The curve of one chunk set: x (n x f, row-major) whole-number samples, y (n) labels +-1,
 * folds (n) each sample's fold 0..k-1; curve (rounds) receives the share of samples predicted
 * right when held out, before each round of removing the per_side most negative and most
 * positive features of the fold models' summed weights. Returns 0, or a negative status.
 */
int taveer_unmasking_curve(int n, int f, const double *x_in, const double *y,
                           const int64_t *folds, int k, int per_side, int rounds, double c,
                           double *curve) {
    if (n < 1 || f < 1 || k < 2 || per_side < 1 || rounds < 1 || !(c > 0) ||
        f - 2 * per_side * (rounds - 1) < 1)
        return BAD_ARGUMENTS;
    for (int i = 0; i < n; i++)
        if (folds[i] < 0 || folds[i] >= k) return BAD_ARGUMENTS;
    int status = OK;
    size_t nn = (size_t)n * n;
    double *x = malloc(sizeof(double) * (size_t)n * f);
    double *gram = malloc(sizeof(double) * nn);
    double *system = malloc(sizeof(double) * nn);
    double *vectors = malloc(sizeof(double) * (size_t)n * (8 + (size_t)k));
    double *weights = malloc(sizeof(double) * (size_t)f);
    int *ints = malloc(sizeof(int) * ((size_t)3 * n + 2 * (size_t)per_side));
    unsigned char *marks = malloc((size_t)n * (2 + (size_t)k) + f);
    if (!x || !gram || !system || !vectors || !weights || !ints || !marks) {
        status = NO_MEMORY;
        goto done;
    }
    double *solved = vectors, *breaks = vectors + n, *point = vectors + 2 * n;
    double *direction = vectors + 3 * n, *change = vectors + 4 * n, *summed = vectors + 5 * n;
    double *out = vectors + 6 * n, *column = vectors + 7 * n, *params = vectors + 8 * n; /* k x n: each fold's a */
    int *rows = ints, *nonzero = ints + n, *order = ints + 2 * n;
    int *removed = ints + 3 * n;
    unsigned char *train = marks, *active = marks + n, *last = marks + 2 * n;
    unsigned char *alive = marks + (size_t)(2 + k) * n;
    memcpy(x, x_in, sizeof(double) * (size_t)n * f);
    memset(alive, 1, (size_t)f);
    for (size_t e = 0; e < nn; e++) gram[e] = 1.0; /* the constant feature */
    for (int q = 0; q < f; q++) { /* whole numbers: exact in any order; zeros skipped */
        for (int j = 0; j < n; j++) column[j] = x[(size_t)j * f + q];
        for (int i = 0; i < n; i++) {
            double xi = column[i];
            if (xi == 0.0) continue;
            double *row = gram + (size_t)i * n;
            for (int j = 0; j < n; j++) row[j] += xi * column[j];
        }
    }
    Solver s = {n, 1.0 / (2.0 * c), c, gram, y, system, solved, rows, nonzero, breaks, order};
    for (int r = 0; r < rounds; r++) {
        int correct = 0;
        memset(summed, 0, sizeof(double) * n);
        for (int q = 0; q < k; q++) {
            double *a = params + (size_t)q * n;
            unsigned char *fold_last = last + (size_t)q * n;
            for (int i = 0; i < n; i++) train[i] = folds[i] != q;
            if (r > 0)
                for (int i = 0; i < n; i++) fold_last[i] &= train[i];
            status = fit_fold(&s, train, r == 0 ? NULL : fold_last, a, out, active, point,
                              direction, change);
            if (status != OK) goto done;
            memcpy(fold_last, active, (size_t)n);
            for (int i = 0; i < n; i++) {
                if (!train[i] && (out[i] > 0 ? 1.0 : -1.0) == y[i]) correct++;
                summed[i] += a[i];
            }
        }
        curve[r] = (double)correct / n;
        if (r == rounds - 1) break;
        memset(weights, 0, sizeof(double) * (size_t)f);
        for (int i = 0; i < n; i++) {
            if (summed[i] == 0.0) continue;
            const double *row = x + (size_t)i * f;
            for (int q = 0; q < f; q++) weights[q] += summed[i] * row[q];
        }
        strongest(f, alive, weights, per_side, removed);
        for (int p = 0; p < 2 * per_side; p++) {
            int feature = removed[p];
            alive[feature] = 0;
            for (int j = 0; j < n; j++) {
                column[j] = x[(size_t)j * f + feature];
                x[(size_t)j * f + feature] = 0.0;
            }
            for (int i = 0; i < n; i++) { /* its exact part of the Gram matrix taken away */
                double xi = column[i];
                if (xi == 0.0) continue;
                double *row = gram + (size_t)i * n;
                for (int j = 0; j < n; j++) row[j] -= xi * column[j];
            }
        }
    }
done:
    free(x);
    free(gram);
    free(system);
    free(vectors);
    free(weights);
    free(ints);
    free(marks);
    return status;
}
