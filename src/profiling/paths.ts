/**
 * Where the profiling methods may write (and debug_traceBlockFromFile read): only inside the configured directory. A name is resolved
 * against it; one that leaves it (`../`, an absolute path elsewhere, a symbolic link pointing out)
 * is refused before anything is written.
 */
import { lstatSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path'
import { Refused } from '../domain-errors.js'

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/**
 * The absolute path `file` names inside `dir`, checked: the directory that will hold it must exist
 * and be `dir` or below it once symbolic links are followed, and the file itself must not be a
 * symbolic link (writing through one would land wherever it points).
 */
export function pathInside(dir: string, file: string, verb: 'write' | 'read' = 'write'): string {
  if (file === '') throw new Refused('file name is empty')
  if (file.includes('\0')) throw new Refused('file name contains a NUL byte')
  let root: string
  try {
    root = realpathSync(dir)
  } catch (error) {
    throw new Refused(`the profiling directory ${dir} is not available: ${(error as Error).message}`)
  }
  const wanted = resolve(root, file)
  if (!inside(root, wanted)) throw new Refused(`refusing to ${verb} ${file}: outside the profiling directory ${root}`)
  let parent: string
  try {
    parent = realpathSync(dirname(wanted))
  } catch {
    throw new Refused(`refusing to ${verb} ${file}: its directory does not exist in the profiling directory ${root}`)
  }
  const target = resolve(parent, basename(wanted))
  if (!inside(root, target)) throw new Refused(`refusing to ${verb} ${file}: outside the profiling directory ${root}`)
  let isLink = false
  try {
    isLink = lstatSync(target).isSymbolicLink()
  } catch {
    // A file that does not exist yet is the usual case.
  }
  if (isLink) throw new Refused(`refusing to ${verb} ${file}: it is a symbolic link`)
  return target
}
