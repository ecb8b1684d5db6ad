export const keys = (o: object) => Object.keys(o) as ;
