const unused = 1;

export function wordCount(text) {
	return text.split(' ').length
}
