/**
 * The BFT engine: for each height, rounds of propose → prevote → precommit, as in Tendermint.
 * A block commits when validators holding more than 2/3 of the voting power precommit it; their
 * signatures form the block's commit certificate. A round whose proposer is offline, or that
 * gathers no quorum, moves on to the next round and proposer; when no round can reach a quorum
 * the height is left undecided and the chain halts until enough validators are back.
 *
 * All validators of this node run in-process, so their messages cross no network: the tally
 * trusts them as it trusts its own key. Certificates carry real ed25519 signatures that
 * {@link verifyCertificate} checks independently.
 */
import { equalBytes } from '../hex.js'
import { signBytes, Step, type CommitCertificate } from './votes.js'
import { verifySignature, type Validator } from './validator.js'

/** A decided height; the proposal's signature is made if someone asks for it (nobody keeps it). */
class Decided<C extends Candidate> implements Decision<C> {
  private signed: Uint8Array | undefined

  constructor(
    readonly candidate: C,
    readonly certificate: CommitCertificate,
    private readonly proposer: Validator,
    private readonly chainId: bigint,
  ) {}

  get proposalSignature(): Uint8Array {
    const c = this.certificate
    return (this.signed ??= this.proposer.sign(signBytes(Step.Proposal, this.chainId, c.height, c.round, c.blockHash)))
  }
}

/**
 * One validator's precommit, signed on the first read of `signature`. A class, not a closure per
 * vote: a chain keeps every block's certificate, and a closure with its context cost more memory
 * than the 64-byte signature it stands for.
 */
class Precommit {
  readonly validator: Validator['address']
  private signed: Uint8Array | undefined

  constructor(
    private readonly signer: Validator,
    private readonly chainId: bigint,
    private readonly height: bigint,
    private readonly round: number,
    private readonly blockHash: Uint8Array,
  ) {
    this.validator = signer.address
  }

  get signature(): Uint8Array {
    return (this.signed ??= this.signer.sign(signBytes(Step.Precommit, this.chainId, this.height, this.round, this.blockHash)))
  }
}

/** The validators of the chain and their voting power. */
export class ValidatorSet {
  readonly validators: readonly Validator[]
  readonly totalPower: bigint

  private readonly byAddressMap: Map<string, Validator>

  constructor(validators: Validator[]) {
    if (validators.length === 0) throw new Error('the validator set is empty')
    this.validators = [...validators].sort((a, b) => (a.address < b.address ? -1 : 1))
    this.totalPower = this.validators.reduce((sum, v) => sum + v.power, 0n)
    this.byAddressMap = new Map(this.validators.map((v) => [v.address, v]))
  }

  /** Round-robin by height and round over the set ordered by address. */
  proposer(height: bigint, round: number): Validator {
    const n = BigInt(this.validators.length)
    return this.validators[Number((height + BigInt(round)) % n)] as Validator
  }

  /** More than 2/3 of the total voting power. */
  isQuorum(power: bigint): boolean {
    return power * 3n > this.totalPower * 2n
  }

  byAddress(address: string): Validator | undefined {
    return this.byAddressMap.get(address)
  }

  /** Addresses of the validators taken offline; an offline validator neither proposes nor votes. */
  private readonly offline = new Set<string>()

  /** Whether a validator of this set proposes and votes. */
  isOnline(validator: Validator): boolean {
    return !this.offline.has(validator.address)
  }

  /**
   * Takes a validator offline or back online (the only writer of this status). Answers false for
   * an address not in the set.
   */
  setOnline(address: string, online: boolean): boolean {
    if (!this.byAddressMap.has(address)) return false
    if (online) this.offline.delete(address)
    else this.offline.add(address)
    return true
  }

  /** The voting power that is online now. */
  onlinePower(): bigint {
    return this.validators.reduce((sum, v) => sum + (this.isOnline(v) ? v.power : 0n), 0n)
  }
}

/** What a round's proposer offers: a candidate block, by hash. */
export interface Candidate {
  hash: Uint8Array
}

/** The outcome of a decided height. */
export interface Decision<C extends Candidate> {
  candidate: C
  certificate: CommitCertificate
  proposalSignature: Uint8Array
}

export class BftEngine {
  constructor(
    private readonly chainId: bigint,
    readonly set: ValidatorSet,
  ) {}

  /**
   * Runs rounds for `height` until one commits or every validator has had its turn to propose.
   * `propose` has the application prepare the block of one round for its proposer (ABCI++'s
   * PrepareProposal); `check` is the application's ProcessProposal, which every validator runs
   * before it prevotes: a rejected proposal gets nil prevotes and the round moves on.
   */
  async decide<C extends Candidate>(
    height: bigint,
    propose: (proposer: Validator, round: number) => Promise<C>,
    check: (candidate: C) => Promise<boolean> = async () => true,
  ): Promise<Decision<C> | undefined> {
    if (!this.set.isQuorum(this.set.onlinePower())) return undefined
    for (let round = 0; round < this.set.validators.length; round++) {
      const proposer = this.set.proposer(height, round)
      if (!this.set.isOnline(proposer)) continue
      const candidate = await propose(proposer, round)
      // The validators share this process's application: one check answers for all of them.
      if (!(await check(candidate))) continue
      // Prevotes are tallied, never kept or served: only the power of the online voters counts.
      if (!this.set.isQuorum(this.set.onlinePower())) continue
      const precommits = this.precommits(height, round, candidate.hash)
      if (!this.set.isQuorum(this.power(precommits))) continue
      return new Decided(candidate, { height, round, blockHash: candidate.hash, proposer: proposer.address, precommits }, proposer, this.chainId)
    }
    return undefined
  }

  /**
   * The online validators' precommits. Each signature is made when it is first read (the
   * certificate served, verified or written to a database), not at commit: ed25519 signatures
   * are deterministic (RFC 8032), so the bytes are the same whenever they are made, and a chain
   * that mines thousands of blocks at once (hardhat_mine) signs none it is not asked for.
   */
  private precommits(height: bigint, round: number, blockHash: Uint8Array): CommitCertificate['precommits'] {
    const votes: CommitCertificate['precommits'] = []
    for (const v of this.set.validators) if (this.set.isOnline(v)) votes.push(new Precommit(v, this.chainId, height, round, blockHash))
    return votes
  }

  private power(votes: Array<{ validator: string }>): bigint {
    let sum = 0n
    for (const v of votes) sum += this.set.byAddress(v.validator)?.power ?? 0n
    return sum
  }
}

/**
 * Checks a certificate on its own: every precommit signature is valid for this chain, height,
 * round and block, no validator counts twice, and the signers hold more than 2/3 of the power.
 */
export function verifyCertificate(
  certificate: CommitCertificate,
  set: ValidatorSet,
  chainId: bigint,
  blockHash: Uint8Array,
): boolean {
  if (!equalBytes(certificate.blockHash, blockHash)) return false
  const message = signBytes(Step.Precommit, chainId, certificate.height, certificate.round, certificate.blockHash)
  const seen = new Set<string>()
  let power = 0n
  for (const p of certificate.precommits) {
    const validator = set.byAddress(p.validator)
    if (validator === undefined || seen.has(p.validator)) return false
    if (!verifySignature(validator.publicKey, message, p.signature)) return false
    seen.add(p.validator)
    power += validator.power
  }
  return set.isQuorum(power)
}
