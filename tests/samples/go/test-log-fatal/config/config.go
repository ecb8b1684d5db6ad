package config

import "os"

func Path() string { return os.Getenv("SVC_CONFIG") }
