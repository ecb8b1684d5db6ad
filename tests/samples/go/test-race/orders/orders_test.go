package orders

import "testing"

func TestTake(t *testing.T) {
	if got := Take(2); got < 1 {
		t.Fatalf("Take(2) = %d", got)
	}
}

func TestTakeNone(t *testing.T) {
	if got := Take(0); got != 0 {
		t.Fatalf("Take(0) = %d", got)
	}
}
