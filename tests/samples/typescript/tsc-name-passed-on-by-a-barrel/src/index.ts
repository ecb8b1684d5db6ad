export { Result, ok } from './result'
export { combine } from './combine'
