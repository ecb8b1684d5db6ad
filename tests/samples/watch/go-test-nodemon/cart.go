package cart

// Total is the sum of price times quantity.
func Total(prices, qty []int) int {
	sum := 0
	for i := range prices {
		sum += prices[i]
	}
	return sum
}
