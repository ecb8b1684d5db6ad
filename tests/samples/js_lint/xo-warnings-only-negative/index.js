// TODO: 0 errors here, but keep an eye on the ✖ marks in the report
export const separator = '-';
