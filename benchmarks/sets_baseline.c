/* A plain C baseline for benchmarks/bench_sim.py: SET games and random tables, one at a time.

   Cards are 0..80; the third card of a pair comes from a table built at start-up, and a
   table is checked pair by pair with a presence array, the way a careful C programmer
   would write it without tricks (no SIMD, no bit-slicing).

   Usage: sets_baseline games N        plays N games to the end (standard rules, first SET
                                       found, taken cards replaced in place up to 12, no
                                       replacement above 12); prints "games N SECONDS SETS"
          sets_baseline tables N SIZE  checks N random tables of SIZE cards for a SET (the
                                       tables are dealt before the clock starts); prints
                                       "tables N SECONDS NOSET"
          sets_baseline dealt N SIZE   deals N random tables of SIZE cards and checks each,
                                       both timed; prints "dealt N SECONDS NOSET"
   Compile: cc -O2 -o sets_baseline sets_baseline.c
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned char third[81][81];
static unsigned long long state = 88172645463325252ULL;

static unsigned long long next_random(void) {
    /* xorshift64: fast and good enough to shuffle cards */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static void shuffle(unsigned char *cards, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next_random() % (unsigned long long)(i + 1));
        unsigned char t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

static void build_third(void) {
    for (int a = 0; a < 81; a++)
        for (int b = 0; b < 81; b++) {
            int x = a, y = b, t = 0, p = 1;
            for (int f = 0; f < 4; f++) {
                int d = (6 - x % 3 - y % 3) % 3;
                t += d * p;
                p *= 3;
                x /= 3;
                y /= 3;
            }
            third[a][b] = (unsigned char)t;
        }
}

static double now(void) {
    /* CPU time of this process: other programs on a shared machine do not count */
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The first SET (positions i < j < k, smallest first) on the table, or 0 when there is none. */
static int first_set(const unsigned char *table, int n, const signed char *where, int *pi, int *pj, int *pk) {
    for (int i = 0; i < n - 2; i++)
        for (int j = i + 1; j < n - 1; j++) {
            int k = where[third[table[i]][table[j]]];
            if (k > j) {
                *pi = i;
                *pj = j;
                *pk = k;
                return 1;
            }
        }
    return 0;
}

static int has_set_among(const unsigned char *cards, int n) {
    unsigned char present[81];
    memset(present, 0, sizeof present);
    for (int i = 0; i < n; i++) present[cards[i]] = 1;
    for (int i = 0; i < n - 2; i++)
        for (int j = i + 1; j < n - 1; j++)
            if (present[third[cards[i]][cards[j]]]) return 1;
    return 0;
}

static long play_game(void) {
    unsigned char deck[81], table[24];
    signed char where[81];
    for (int c = 0; c < 81; c++) deck[c] = (unsigned char)c;
    shuffle(deck, 81);
    memset(where, -1, sizeof where);
    int n = 12, next = 12;
    long sets = 0;
    for (int p = 0; p < n; p++) {
        table[p] = deck[p];
        where[deck[p]] = (signed char)p;
    }
    for (;;) {
        int i, j, k;
        if (first_set(table, n, where, &i, &j, &k)) {
            sets++;
            int gaps[3] = {i, j, k};
            for (int g = 0; g < 3; g++) where[table[gaps[g]]] = -1;
            if (n <= 12 && next + 3 <= 81) {
                for (int g = 0; g < 3; g++) {
                    table[gaps[g]] = deck[next++];
                    where[table[gaps[g]]] = (signed char)gaps[g];
                }
            } else {
                /* no replacement: the last cards move into the gaps that stay inside the table */
                int size = n - 3, tail = size;
                for (int g = 0; g < 3; g++) {
                    if (gaps[g] >= size) continue;
                    while (tail == i || tail == j || tail == k) tail++;
                    table[gaps[g]] = table[tail];
                    where[table[tail]] = (signed char)gaps[g];
                    tail++;
                }
                n = size;
            }
        } else {
            if (next >= 81) break;
            unsigned char rest[81];
            int m = 0;
            for (int p = 0; p < n; p++) rest[m++] = table[p];
            for (int q = next; q < 81; q++) rest[m++] = deck[q];
            if (m <= 20 && !has_set_among(rest, m)) break;
            for (int g = 0; g < 3 && next < 81; g++) {
                table[n] = deck[next++];
                where[table[n]] = (signed char)n;
                n++;
            }
        }
    }
    return sets;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s games N | tables N SIZE | dealt N SIZE\n", argv[0]);
        return 2;
    }
    build_third();
    long count = atol(argv[2]);
    if (strcmp(argv[1], "games") == 0) {
        long sets = 0;
        double start = now();
        for (long g = 0; g < count; g++) sets += play_game();
        printf("games %ld %.6f %ld\n", count, now() - start, sets);
        return 0;
    }
    if (strcmp(argv[1], "tables") == 0 && argc > 3) {
        int size = atoi(argv[3]);
        unsigned char *tables = malloc((size_t)count * (size_t)size), deck[81];
        for (long t = 0; t < count; t++) {
            for (int c = 0; c < 81; c++) deck[c] = (unsigned char)c;
            for (int i = 0; i < size; i++) { /* a partial shuffle deals the first SIZE cards */
                int j = i + (int)(next_random() % (unsigned long long)(81 - i));
                unsigned char x = deck[i];
                deck[i] = deck[j];
                deck[j] = x;
            }
            memcpy(tables + t * size, deck, (size_t)size);
        }
        long none = 0;
        double start = now();
        for (long t = 0; t < count; t++) none += !has_set_among(tables + t * size, size);
        printf("tables %ld %.6f %ld\n", count, now() - start, none);
        free(tables);
        return 0;
    }
    if (strcmp(argv[1], "dealt") == 0 && argc > 3) {
        int size = atoi(argv[3]);
        unsigned char deck[81];
        long none = 0;
        double start = now();
        for (long t = 0; t < count; t++) {
            for (int c = 0; c < 81; c++) deck[c] = (unsigned char)c;
            for (int i = 0; i < size; i++) {
                int j = i + (int)(next_random() % (unsigned long long)(81 - i));
                unsigned char x = deck[i];
                deck[i] = deck[j];
                deck[j] = x;
            }
            none += !has_set_among(deck, size);
        }
        printf("dealt %ld %.6f %ld\n", count, now() - start, none);
        return 0;
    }
    fprintf(stderr, "usage: %s games N | tables N SIZE | dealt N SIZE\n", argv[0]);
    return 2;
}
