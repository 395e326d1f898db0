package footer

// BloomFilterHeader precedes a column chunk's bloom filter bitset (thrift
// BloomFilterHeader).
type BloomFilterHeader struct {
	// NumBytes is the size of the bitset that follows the header.
	NumBytes    int32
	Algorithm   BloomFilterAlgorithm
	Hash        BloomFilterHash
	Compression BloomFilterCompression
}

// BloomFilterAlgorithm is the member of the thrift BloomFilterAlgorithm union.
type BloomFilterAlgorithm int8

// Bloom filter algorithms. BloomAlgorithmUnrecognized stands for a member
// this package does not know (or an empty union).
const (
	BloomAlgorithmUnrecognized BloomFilterAlgorithm = 0
	BloomAlgorithmSplitBlock   BloomFilterAlgorithm = 1
)

// String returns the thrift member name of a, or BloomFilterAlgorithm(n).
func (a BloomFilterAlgorithm) String() string {
	return enumName(a, []string{"UNRECOGNIZED", "BLOCK"}, "BloomFilterAlgorithm")
}

// BloomFilterHash is the member of the thrift BloomFilterHash union.
type BloomFilterHash int8

// Bloom filter hashes. BloomHashUnrecognized stands for a member this
// package does not know (or an empty union).
const (
	BloomHashUnrecognized BloomFilterHash = 0
	BloomHashXxHash       BloomFilterHash = 1
)

// String returns the thrift member name of h, or BloomFilterHash(n).
func (h BloomFilterHash) String() string {
	return enumName(h, []string{"UNRECOGNIZED", "XXHASH"}, "BloomFilterHash")
}

// BloomFilterCompression is the member of the thrift BloomFilterCompression
// union.
type BloomFilterCompression int8

// Bloom filter compressions. BloomCompressionUnrecognized stands for a member
// this package does not know (or an empty union).
const (
	BloomCompressionUnrecognized BloomFilterCompression = 0
	BloomCompressionUncompressed BloomFilterCompression = 1
)

// String returns the thrift member name of c, or BloomFilterCompression(n).
func (c BloomFilterCompression) String() string {
	return enumName(c, []string{"UNRECOGNIZED", "UNCOMPRESSED"}, "BloomFilterCompression")
}
