/* The board game's playout kernel: the engine of bot/rules/board/game.py (apply, legal
 * actions, which five lock, dead cards, draws and reshuffles) and the greedy bot of
 * bot/rules/board/bots.py, in C, for roll-outs. bot/rules/board/kernel.py builds it with the
 * system C compiler and loads it with cffi (ABI mode: no Python headers); that module's
 * pure-Python twin plays the same games move for move (board-sim --parity checks it).
 *
 * Random numbers are Python's: the caller hands over the state of its random.Random
 * (MT19937, 624 words and an index) and takes it back, and shuffles and choices consume it
 * exactly as random.shuffle and random.choice do, so a game continues identically in
 * either engine. A full round of passes with nothing traded, placed or removed is a draw
 * (RULINGS §3, the third guard). */

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define CELLS 100
#define RUN 5
#define MAX_SEATS 12
#define MAX_HAND 8
#define MAX_SEQS 64
#define MAX_LINES 64
#define MAX_WINDOWS 256
#define MAX_ACTIONS 256

enum { K_PLAY = 0, K_REMOVE = 1, K_TRADE = 2, K_PASS = 3 };
enum { KIND_PLAIN = 0, KIND_TWO_EYED = 1, KIND_ONE_EYED = 2 };
/* Results of k_play: a side (>= 0) won, or one of these. */
enum { R_BLOCKED = -1, R_STALLED = -2, R_PASSED = -3, R_CAP = -4 };

struct kstate {
    int seats, sides, need;
    int turn, traded, idle_reshuffles, idle_passes, out_mask, turn_count;
    int hand_len[MAX_SEATS];
    int hands[MAX_SEATS][MAX_HAND];
    int pile_len;
    int pile[104];
    int disc_len;
    int disc[104];
    int chips[CELLS];
    int nseq;
    int seq_side[MAX_SEQS];
    int seq_cells[MAX_SEQS][RUN];
    uint32_t mt[624];
    int mti;
};

/* ------------------------------------------------------------------ tables (k_setup) */

static int board_code[CELLS];   /* card code on each cell, -1 on a corner */
static int card_cells[52][2];
static int sort_rank[52];       /* rank of the code's string in Python's sorted() */
static int card_kind[52];
static int n_lines;
static int line_len[MAX_LINES];
static int line_cells[MAX_LINES][10];
static u128 line_mask[MAX_LINES];
static int n_windows;
static u128 window_mask[MAX_WINDOWS];
static int cell_nwin[CELLS];
static int cell_win[CELLS][32];
static int cell_nline[CELLS];
static int cell_line[CELLS][4];
static int cell_pos[CELLS][4];
static u128 corner_mask, plain_mask;

static inline u128 bit(int c) { return (u128)1 << c; }
static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int lowest(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int highest(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* lines: n rows of 10 cell indexes (-1 padded), in layout.LINES order. */
void k_setup(const int *codes, const int *ranks, const int *kinds, int nlines, const int *lines) {
    memset(card_cells, -1, sizeof card_cells);
    corner_mask = 0;
    for (int c = 0; c < CELLS; c++) {
        board_code[c] = codes[c];
        if (codes[c] < 0) {
            corner_mask |= bit(c);
        } else if (card_cells[codes[c]][0] < 0) {
            card_cells[codes[c]][0] = c;
        } else {
            card_cells[codes[c]][1] = c;
        }
        cell_nwin[c] = cell_nline[c] = 0;
    }
    plain_mask = ~corner_mask & ((bit(99) << 1) - 1);
    for (int k = 0; k < 52; k++) {
        sort_rank[k] = ranks[k];
        card_kind[k] = kinds[k];
    }
    n_lines = nlines;
    n_windows = 0;
    for (int li = 0; li < nlines; li++) {
        int len = 0;
        line_mask[li] = 0;
        while (len < 10 && lines[li * 10 + len] >= 0) {
            int c = lines[li * 10 + len];
            line_cells[li][len] = c;
            line_mask[li] |= bit(c);
            cell_line[c][cell_nline[c]] = li;
            cell_pos[c][cell_nline[c]++] = len;
            len++;
        }
        line_len[li] = len;
        for (int s = 0; s + RUN <= len; s++) {
            u128 m = 0;
            for (int i = 0; i < RUN; i++) m |= bit(line_cells[li][s + i]);
            window_mask[n_windows] = m;
            for (int i = 0; i < RUN; i++) {
                int c = line_cells[li][s + i];
                cell_win[c][cell_nwin[c]++] = n_windows;
            }
            n_windows++;
        }
    }
}

/* ------------------------------------------------------------------ Python's random */

static uint32_t genrand(struct kstate *s) {
    uint32_t y;
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = s->mt;
    if (s->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        s->mti = 0;
    }
    y = mt[s->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow(n) for 0 < n < 2**32 (n.bit_length() bits, rejection). */
static int randbelow(struct kstate *s, int n) {
    int k = 32 - __builtin_clz((unsigned)n);
    uint32_t r;
    do {
        r = genrand(s) >> (32 - k);
    } while (r >= (uint32_t)n);
    return (int)r;
}

/* ------------------------------------------------------------------ engine */

struct masks {
    u128 side[3];
    u128 occ, locked;
};

static void masks_of(const struct kstate *s, struct masks *m) {
    memset(m, 0, sizeof *m);
    for (int c = 0; c < CELLS; c++)
        if (s->chips[c] >= 0) m->side[s->chips[c]] |= bit(c);
    for (int i = 0; i < s->sides; i++) m->occ |= m->side[i];
    for (int q = 0; q < s->nseq; q++)
        for (int i = 0; i < RUN; i++) m->locked |= bit(s->seq_cells[q][i]);
}

static u128 seq_mask(const struct kstate *s, int q) {
    u128 m = 0;
    for (int i = 0; i < RUN; i++) m |= bit(s->seq_cells[q][i]);
    return m;
}

static int next_playing(const struct kstate *s, int seat) {
    for (int step = 1; step <= s->seats; step++) {
        int c = (seat + step) % s->seats;
        if (!(s->out_mask >> c & 1)) return c;
    }
    return seat;
}

static int sides_out(const struct kstate *s) {
    int gone = 0;
    for (int side = 0; side < s->sides; side++) {
        int all = 1;
        for (int seat = side; seat < s->seats; seat += s->sides)
            if (!(s->out_mask >> seat & 1)) all = 0;
        if (all) gone |= 1 << side;
    }
    return gone;
}

static int is_dead(const struct kstate *s, int card) {
    if (card_kind[card] != KIND_PLAIN) return 0;
    return s->chips[card_cells[card][0]] >= 0 && s->chips[card_cells[card][1]] >= 0;
}

/* The distinct cards of a hand in Python's sorted(set(hand)) order. */
static int distinct_sorted(const struct kstate *s, int seat, int *out) {
    int n = 0;
    for (int i = 0; i < s->hand_len[seat]; i++) {
        int card = s->hands[seat][i], j;
        for (j = 0; j < n; j++)
            if (out[j] == card) break;
        if (j < n) continue;
        j = n++;
        while (j > 0 && sort_rank[out[j - 1]] > sort_rank[card]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = card;
    }
    return n;
}

static inline int enc(int kind, int card, int cell) { return kind << 16 | card << 8 | cell; }

/* legal_actions of the seat to move, in the engine's order. */
static int legal(const struct kstate *s, const struct masks *m, int *acts, int *nplays) {
    int seat = s->turn, side = seat % s->sides, n = 0, cards[MAX_HAND];
    int nc = distinct_sorted(s, seat, cards);
    if (!s->traded)
        for (int i = 0; i < nc; i++)
            if (is_dead(s, cards[i])) acts[n++] = enc(K_TRADE, cards[i], 0);
    int trades = n;
    for (int i = 0; i < nc; i++) {
        int card = cards[i];
        if (card_kind[card] == KIND_TWO_EYED) {
            u128 free = plain_mask & ~m->occ;
            while (free) {
                int c = lowest(free);
                free &= free - 1;
                acts[n++] = enc(K_PLAY, card, c);
            }
        } else if (card_kind[card] == KIND_ONE_EYED) {
            u128 t = m->occ & ~m->side[side] & ~m->locked;
            while (t) {
                int c = lowest(t);
                t &= t - 1;
                acts[n++] = enc(K_REMOVE, card, c);
            }
        } else {
            for (int k = 0; k < 2; k++) {
                int c = card_cells[card][k];
                if (s->chips[c] < 0) acts[n++] = enc(K_PLAY, card, c);
            }
        }
    }
    *nplays = n - trades;
    if (n == 0) acts[n++] = enc(K_PASS, 0, 0);
    return n;
}

/* The room a side keeps on a line once ``taken`` are its sequences there (_lock_room). */
static void lock_room(int li, const u128 *taken, int ntaken, u128 own, u128 foe_locked,
                      int *windows, int *shortest) {
    int w = 0, sh = RUN + 1, len = line_len[li];
    for (int start = 0; start + RUN <= len; start++) {
        u128 win = 0;
        for (int i = 0; i < RUN; i++) win |= bit(line_cells[li][start + i]);
        int skip = 0;
        for (int t = 0; t < ntaken; t++)
            if (popc(win & taken[t]) > 1) skip = 1;
        if (skip || (win & foe_locked)) continue;
        w++;
        int missing = popc(win & ~own);
        if (missing < sh) sh = missing;
    }
    *windows = w;
    *shortest = sh;
}

static u128 window_at(int li, int start) {
    u128 win = 0;
    for (int i = 0; i < RUN; i++) win |= bit(line_cells[li][start + i]);
    return win;
}

/* The sequences a chip just placed on ``cell`` completes (game.new_sequences): their masks
 * into ``found``, their count returned. ``existing`` are the side's sequences before it. */
static int new_sequences(const struct masks *m, int side, int cell, const u128 *existing,
                         int nexisting, u128 *found) {
    u128 own = m->side[side] | corner_mask;
    u128 foe_locked = m->locked & m->occ & ~m->side[side];
    int nfound = 0;
    for (int l = 0; l < cell_nline[cell]; l++) {
        int li = cell_line[cell][l], pos = cell_pos[cell][l], len = line_len[li];
        int lo = pos, hi = pos;
        while (lo > 0 && (own & bit(line_cells[li][lo - 1]))) lo--;
        while (hi < len - 1 && (own & bit(line_cells[li][hi + 1]))) hi++;
        if (hi - lo + 1 < RUN) continue;
        u128 taken[MAX_SEQS + 8];
        int non = 0;
        for (int q = 0; q < nexisting; q++)
            if (popc(existing[q] & line_mask[li]) >= 2) taken[non++] = existing[q];
        int cands[RUN], nc = 0;
        int from = lo > pos - RUN + 1 ? lo : pos - RUN + 1;
        int to = hi - RUN + 1 < pos ? hi - RUN + 1 : pos;
        for (int start = from; start <= to; start++) {
            u128 win = window_at(li, start);
            int ok = 1;
            for (int q = 0; q < non; q++)
                if (popc(taken[q] & win) > 1) ok = 0;
            if (ok) cands[nc++] = start;
        }
        /* _best_windows: most windows first, combinations in itertools order. */
        int best[RUN], nbest = 0, best_w = -1, best_neg = 0;
        for (int size = nc; size >= 1 && !nbest; size--) {
            int idx[RUN];
            for (int i = 0; i < size; i++) idx[i] = i;
            for (;;) {
                int ok = 1;
                for (int i = 1; i < size; i++)
                    if (cands[idx[i]] - cands[idx[i - 1]] < RUN - 1) ok = 0;
                if (ok) {
                    for (int i = 0; i < size; i++) taken[non + i] = window_at(li, cands[idx[i]]);
                    int w, sh;
                    lock_room(li, taken, non + size, own, foe_locked, &w, &sh);
                    if (w > best_w || (w == best_w && -sh > best_neg)) {
                        best_w = w;
                        best_neg = -sh;
                        nbest = size;
                        for (int i = 0; i < size; i++) best[i] = cands[idx[i]];
                    }
                }
                int i = size - 1;
                while (i >= 0 && idx[i] == nc - size + i) i--;
                if (i < 0) break;
                idx[i]++;
                for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
            }
        }
        for (int i = 0; i < nbest; i++) found[nfound++] = window_at(li, best[i]);
    }
    return nfound;
}

static void remove_card(struct kstate *s, int seat, int card) {
    int *h = s->hands[seat], n = s->hand_len[seat];
    for (int i = 0; i < n; i++)
        if (h[i] == card) {
            memmove(h + i, h + i + 1, (size_t)(n - i - 1) * sizeof(int));
            s->hand_len[seat] = n - 1;
            return;
        }
}

/* _draw: reshuffle the discards when the pile is empty; the card drawn or -1. */
static int draw(struct kstate *s, int *reshuffled) {
    *reshuffled = 0;
    if (!s->pile_len) {
        memcpy(s->pile, s->disc, (size_t)s->disc_len * sizeof(int));
        s->pile_len = s->disc_len;
        s->disc_len = 0;
        for (int i = s->pile_len - 1; i >= 1; i--) {
            int j = randbelow(s, i + 1), t = s->pile[i];
            s->pile[i] = s->pile[j];
            s->pile[j] = t;
        }
        *reshuffled = 1;
    }
    if (!s->pile_len) return -1;
    return s->pile[--s->pile_len];
}

static int playing_count(const struct kstate *s) {
    return s->seats - __builtin_popcount((unsigned)s->out_mask);
}

/* apply one action; the outcome: a side, a draw (R_*) or R_CAP (the game goes on). */
static int apply(struct kstate *s, struct masks *m, int action) {
    int kind = action >> 16, card = action >> 8 & 0xff, cell = action & 0xff;
    int seat = s->turn, side = seat % s->sides, reshuffled, drawn;
    if (kind == K_PASS) {
        s->turn = next_playing(s, seat);
        s->turn_count++;
        s->traded = 0;
        if (++s->idle_passes >= playing_count(s)) return R_PASSED;
        return R_CAP;
    }
    remove_card(s, seat, card);
    s->disc[s->disc_len++] = card;
    if (kind == K_TRADE) {
        drawn = draw(s, &reshuffled);
        if (drawn >= 0) s->hands[seat][s->hand_len[seat]++] = drawn;
        s->idle_reshuffles += reshuffled;
        s->traded = 1;
        s->idle_passes = 0;
        return s->idle_reshuffles >= 2 ? R_STALLED : R_CAP;
    }
    int done = 0;
    if (kind == K_REMOVE) {
        s->chips[cell] = -1;
        for (int i = 0; i < s->sides; i++) m->side[i] &= ~bit(cell);
        m->occ &= ~bit(cell);
    } else {
        u128 existing[MAX_SEQS], found[16];
        int nexisting = 0, have = 0;
        for (int q = 0; q < s->nseq; q++)
            if (s->seq_side[q] == side) existing[nexisting++] = seq_mask(s, q);
        s->chips[cell] = side;
        m->side[side] |= bit(cell);
        m->occ |= bit(cell);
        int nf = new_sequences(m, side, cell, existing, nexisting, found);
        for (int f = 0; f < nf && s->nseq < MAX_SEQS; f++) {
            int q = s->nseq++, i = 0;
            u128 cells = found[f];
            s->seq_side[q] = side;
            while (cells) {
                s->seq_cells[q][i++] = lowest(cells);
                cells &= cells - 1;
            }
            m->locked |= found[f];
        }
        for (int q = 0; q < s->nseq; q++)
            if (s->seq_side[q] == side) have++;
        done = nf > 0 && have >= s->need;
    }
    reshuffled = 0;
    if (!done) {
        drawn = draw(s, &reshuffled);
        if (drawn >= 0) s->hands[seat][s->hand_len[seat]++] = drawn;
    }
    s->turn = next_playing(s, seat);
    s->turn_count++;
    s->traded = 0;
    s->idle_passes = 0;
    s->idle_reshuffles = reshuffled;
    if (done) return side;
    if (!(plain_mask & ~m->occ) && !(m->occ & ~m->locked)) return R_BLOCKED;
    return R_CAP;
}

/* ------------------------------------------------------------------ greedy */

static const int GREEDY_OWN[6] = {0, 1, 3, 9, 27, 1000};
static const int GREEDY_BLOCK[6] = {0, 1, 3, 15, 500, 0};
#define GREEDY_JACK_COST 45

static int is_dead_window(const struct kstate *s, int side, u128 win) {
    for (int q = 0; q < s->nseq; q++)
        if (s->seq_side[q] == side && popc(win & seq_mask(s, q)) >= 2) return 1;
    return 0;
}

static int greedy(struct kstate *s, const struct masks *m, const int *acts, int n) {
    int side = s->turn % s->sides, gone = sides_out(s);
    u128 own_chips = m->side[side], own = own_chips | corner_mask, foes = 0;
    for (int i = 0; i < s->sides; i++)
        if (i != side) foes |= m->side[i];
    long long gain_cache[CELLS];
    char cached[CELLS];
    memset(cached, 0, sizeof cached);
    long long scores[MAX_ACTIONS], best = 0;
    int have_best = 0;
    for (int a = 0; a < n; a++) {
        int kind = acts[a] >> 16, card = acts[a] >> 8 & 0xff, cell = acts[a] & 0xff;
        long long g = 0;
        if (kind == K_PLAY) {
            if (!cached[cell]) {
                for (int k = 0; k < cell_nwin[cell]; k++) {
                    u128 win = window_mask[cell_win[cell][k]];
                    if (!(win & foes)) {
                        if (!is_dead_window(s, side, win)) {
                            int c = popc(win & own);
                            g += GREEDY_OWN[c + 1] - GREEDY_OWN[c];
                        }
                    } else if (!(win & own_chips)) {
                        for (int o = 0; o < s->sides; o++) {
                            if (o == side || (gone >> o & 1)) continue;
                            u128 chips = m->side[o];
                            if ((win & chips) && !(win & foes & ~chips))
                                g += GREEDY_BLOCK[popc(win & (chips | corner_mask))];
                        }
                    }
                }
                gain_cache[cell] = g;
                cached[cell] = 1;
            }
            g = gain_cache[cell];
            if (card_kind[card] == KIND_TWO_EYED) g -= GREEDY_JACK_COST;
        } else if (kind == K_REMOVE) {
            for (int o = 0; o < s->sides; o++) {
                if (o == side || (gone >> o & 1)) continue;
                u128 chips = m->side[o];
                if (!(chips & bit(cell))) continue;
                for (int k = 0; k < cell_nwin[cell]; k++) {
                    u128 win = window_mask[cell_win[cell][k]];
                    if (!(win & foes & ~chips) && !(win & own_chips))
                        g += GREEDY_BLOCK[popc(win & (chips | corner_mask))];
                }
            }
            g -= GREEDY_JACK_COST;
        } else {
            scores[a] = 0;
            continue;
        }
        scores[a] = g;
        if (!have_best || g > best) best = g;
        have_best = 1;
    }
    int tied[MAX_ACTIONS], nt = 0;
    for (int a = 0; a < n; a++) {
        int kind = acts[a] >> 16;
        if ((kind == K_PLAY || kind == K_REMOVE) && scores[a] >= best) tied[nt++] = acts[a];
    }
    return tied[randbelow(s, nt)];
}

/* ------------------------------------------------------------------ playing */

/* ``first`` (a legal action, or -1), then every seat by greedy (trades and passes forced
 * first, as bots.forced_action) for at most ``max_plies`` actions in all or to the game's
 * end. Each action is written to ``moves`` (when not NULL) encoded kind << 16 | card << 8 |
 * cell; ``*plies`` is how many. */
int k_play(struct kstate *s, int first, int max_plies, int *moves, int *plies) {
    struct masks m;
    int acts[MAX_ACTIONS], nplays, result = R_CAP;
    masks_of(s, &m);
    *plies = 0;
    while (*plies < max_plies) {
        int action = -1;
        if (first >= 0 && *plies == 0) {
            action = first;
        } else {
            int n = legal(s, &m, acts, &nplays);
            for (int a = 0; a < n && action < 0; a++)
                if (acts[a] >> 16 == K_TRADE) action = acts[a];
            if (action < 0) action = acts[0] >> 16 == K_PASS ? acts[0] : greedy(s, &m, acts, n);
        }
        if (moves) moves[*plies] = action;
        (*plies)++;
        result = apply(s, &m, action);
        if (result != R_CAP) break;
    }
    return result;
}
