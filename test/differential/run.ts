/**
 * The corpora and one run of them: each corpus on a fresh pair of sides, its differences as
 * {@link Found} leaves, each with the known difference that covers it (if one does).
 *
 * DIFF_FULL=1 runs every corpus and every step; by default the in-process recording is left out
 * and so is a hardhat_mine of more than 1,000 blocks, on both sides (the recorded suite mines 8,197
 * blocks past the history ring, seconds on finality run from its sources), which keeps the run
 * within the test's time.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { generatedSteps } from './corpus/generated.js'
import { knownFor, type Found, type Known } from './known.js'
import { replay, type Step } from './replay.js'
import { finalitySide, hardhatSide, type Mode } from './sides.js'

const here = path.dirname(fileURLToPath(import.meta.url))

/** A corpus: its steps and the chain it runs on. */
export interface Corpus {
  name: string
  steps: Step[]
  allowUnlimitedContractSize: boolean
}

/** The genesis date of every run (the recorded suite was recorded from it). */
export const INITIAL_DATE = new Date('2025-01-01T00:00:00Z')

function readJsonLines(file: string): Step[] {
  return readFileSync(path.join(here, 'corpus', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Step)
}

/** A hardhat_mine too long for the default run. */
function longMine(step: Step): boolean {
  if (step.method !== 'hardhat_mine' || typeof step.params[0] !== 'string') return false
  try {
    return BigInt(step.params[0]) > 1000n
  } catch {
    return false
  }
}

/**
 * The corpora: the generated one, and the recorded Hardhat project's requests twice: as it sends
 * them to Hardhat Network (`--network hardhat`) and as it sends them to a node in-process through
 * Hardhat's HTTP-network wrappers (`--network inprocess`: estimates on `pending` and fees filled in
 * before each send; DIFF_FULL=1 only).
 */
export async function corpora(full = process.env.DIFF_FULL === '1'): Promise<Corpus[]> {
  const recorded = (file: string) => {
    const steps = readJsonLines(file)
    return full ? steps : steps.filter((s) => !longMine(s))
  }
  return [
    { name: 'generated', steps: await generatedSteps(), allowUnlimitedContractSize: false },
    // The project deploys a contract past EIP-170, as its in-process network allows.
    { name: 'hardhat-suite', steps: recorded('hardhat-suite.jsonl'), allowUnlimitedContractSize: true },
    ...(full ? [{ name: 'inprocess-suite', steps: recorded('inprocess-suite.jsonl'), allowUnlimitedContractSize: true }] : []),
  ]
}

/** A difference found, with what covers it. */
export interface Classified extends Found {
  known: Known | undefined
}

/** Runs one corpus on a fresh Hardhat provider and a fresh finality node. */
export async function runCorpus(corpus: Corpus, mode: Mode = 'wire'): Promise<Classified[]> {
  const config = { mode, initialDate: INITIAL_DATE, allowUnlimitedContractSize: corpus.allowUnlimitedContractSize }
  const [hardhat, finality] = await Promise.all([hardhatSide(config), finalitySide(config)])
  try {
    const steps = await replay(corpus.name, corpus.steps, hardhat, finality)
    return steps.flatMap((s) =>
      s.diffs.map((d) => {
        const found: Found = { ...d, corpus: s.corpus, index: s.index, method: s.method, params: s.params, ...(s.note === undefined ? {} : { note: s.note }), answers: s.answers }
        return { ...found, known: knownFor(found) }
      }),
    )
  } finally {
    await Promise.all([hardhat.close(), finality.close()])
  }
}

/** One line for a difference. */
export function describe(d: Found): string {
  const show = (v: unknown) => {
    const t = v === undefined ? 'absent' : JSON.stringify(v)
    return t.length > 160 ? `${t.slice(0, 157)}...` : t
  }
  return `${d.corpus}#${d.index} ${d.method} ${show(d.params)}\n    ${d.path}: hardhat ${show(d.hardhat)} | finality ${show(d.finality)}`
}
