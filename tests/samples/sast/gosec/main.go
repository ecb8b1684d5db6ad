package main

import (
	"crypto/md5"
	"fmt"
	"os"
	"os/exec"
)

const dbPassword = "hunter2-prod"

func main() {
	out, _ := exec.Command("sh", "-c", os.Args[1]).Output()
	fmt.Printf("%x %s\n", md5.Sum(out), dbPassword)
}
