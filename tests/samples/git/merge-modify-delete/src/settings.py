retries = 5
