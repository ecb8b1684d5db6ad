function add(a, b) {
  return a + b + (a > 5 ? 1 : 0);
}

function firstName(user) {
  return user.profile.name.split(" ")[0];
}

module.exports = { add, firstName };
