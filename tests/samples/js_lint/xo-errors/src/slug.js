export function slugify(text, separator) {
	if (separator == undefined) {
		separator = '-';
	}

	// TODO: handle unicode
	return text.trim().toLowerCase().replaceAll(' ', separator);
}
