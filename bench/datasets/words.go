package datasets

import "math/rand/v2"

// words is the vocabulary of the free-text columns (TPC-H comment style).
var words = [...]string{
	"furiously", "quickly", "carefully", "blithely", "slyly", "ironic",
	"regular", "final", "express", "bold", "pending", "special", "unusual",
	"even", "silent", "daring", "ruthless", "idle", "busy", "close",
	"deposits", "requests", "accounts", "packages", "instructions", "theodolites",
	"pinto", "beans", "foxes", "ideas", "dependencies", "platelets", "asymptotes",
	"courts", "dolphins", "multipliers", "sauternes", "warthogs", "frets",
	"dinos", "attainments", "somas", "Tiresias", "patterns", "forges",
	"braids", "hockey", "players", "frays", "warhorses", "dugouts", "notornis",
	"epitaphs", "pearls", "tithes", "waters", "orbits", "gifts", "sheaves",
	"depths", "sentiments", "decoys", "realms", "pains", "grouches", "escapades",
}

// appendSentence appends between lo and hi words (inclusive) drawn from
// words to dst, separated by single spaces.
func appendSentence(dst []byte, rng *rand.Rand, lo, hi int) []byte {
	n := lo + rng.IntN(hi-lo+1)
	for i := range n {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, words[rng.IntN(len(words))]...)
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// appendHex appends the low 4*n bits of v as n lowercase hex digits.
func appendHex(dst []byte, v uint64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, hexDigits[(v>>(4*uint(i)))&15])
	}
	return dst
}

// valid returns a validity slice of n entries, each false with probability
// nullFrac, or nil when nullFrac is zero (all valid).
func valid(rng *rand.Rand, n int, nullFrac float64) []bool {
	if nullFrac == 0 {
		return nil
	}
	v := make([]bool, n)
	for i := range v {
		v[i] = rng.Float64() >= nullFrac
	}
	return v
}

// cents rounds x to two decimals.
func cents(x float64) float64 {
	if x < 0 {
		return float64(int64(x*100-0.5)) / 100
	}
	return float64(int64(x*100+0.5)) / 100
}
