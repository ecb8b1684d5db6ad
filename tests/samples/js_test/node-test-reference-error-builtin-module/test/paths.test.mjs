import { test } from 'node:test'
import assert from 'node:assert/strict'
import { reportPath, extension } from '../src/paths.mjs'

test('report path', () => {
  assert.equal(reportPath('out', 'a'), 'out/reports/a.json')
})

test('extension', () => {
  assert.equal(extension('a.json'), '.json')
})
