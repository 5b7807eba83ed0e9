import { readFileSync } from 'node:fs'
import type { Abi, Hex } from 'viem'
import { ARTIFACT } from './compile.js'

/** MyToken's ABI and creation code, compiled by the global setup. */
export const myToken = JSON.parse(readFileSync(ARTIFACT, 'utf8')) as { abi: Abi; bytecode: Hex }
