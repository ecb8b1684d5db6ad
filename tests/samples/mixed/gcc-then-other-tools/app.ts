const count: number = "three";
export { count };
