package sync

import "time"

// Wait blocks until the remote side answers (it never does in the test).
func Wait(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
}
