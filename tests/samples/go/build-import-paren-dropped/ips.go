package ips

import (
	"fmt"
	"net"
	"strings"


// pflag's ip_slice.go: the import block's ')' was dropped
type ipSlice struct {
	value []net.IP
}

func (s *ipSlice) String() string {
	out := make([]string, len(s.value))
	for i, ip := range s.value {
		out[i] = fmt.Sprint(ip)
	}
	return strings.Join(out, ",")
}
