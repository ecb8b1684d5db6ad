int util(void) { return missing_name; }
