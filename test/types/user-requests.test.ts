/**
 * tsc on a user's code (test/types/user-requests.ts), with the project's compiler options: it
 * compiles clean, so every `@ts-expect-error` in it is used; and with those lines taken out, each
 * call under one fails with the message its `(tsc: …)` names and nothing else fails. A request of
 * a served method with wrong params is an error users see at compile time, worded as tsc words a
 * wrong element, never resolved by an untyped fallback.
 */
import { describeMarkedFile } from '../helpers/tsc-markers.js'

describeMarkedFile("tsc on a user's requests", 'test/types/user-requests.ts', 20)
