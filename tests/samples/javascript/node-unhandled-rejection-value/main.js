async function loadSettings() {
  // rejects with a string, not an Error: no stack
  return Promise.reject('settings.json is missing the "currency" key');
}

loadSettings().then((s) => console.log(s));
