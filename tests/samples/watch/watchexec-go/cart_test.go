package cart

import "testing"

func TestTotal(t *testing.T) {
	if got := Total([]int{3, 5}, []int{2, 1}); got != 11 {
		t.Errorf("Total = %d, want 11", got)
	}
}
