package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 2); got != 4 {
		t.Errorf("Add(2, 2) = %d, want %d", got, 4)
	}
}

func TestSplit(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		if got := Split(""); len(got) != 1 {
			t.Fatalf("Split(\"\") returned %d parts, want 1", len(got))
		}
	})
	t.Run("word", func(t *testing.T) {
		if got := Split("a"); len(got) != 1 {
			t.Fatal("unexpected")
		}
	})
}

func TestErrorHandling(t *testing.T) {
	if Add(0, 0) != 1 {
		t.Error("no error expected")
	}
}
