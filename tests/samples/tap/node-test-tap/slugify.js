function slugify(title) {
  return title.toLowerCase().replace(/ /g, '_');
}
module.exports = { slugify };
