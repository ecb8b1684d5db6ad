package calc

import "testing"

func TestAdd(t *testing.T) {
	t.Run("two (small)", func(t *testing.T) {
		if 1+1 != 2 {
			t.Fatal("bad")
		}
	})
}
