package slow

import (
	"testing"
	"time"
)

func TestWaitsForever(t *testing.T) {
	time.Sleep(10 * time.Second)
}
