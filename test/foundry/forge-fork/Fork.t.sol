// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Counter} from "../src/Counter.sol";

/// The cheatcodes these tests use, with forge-std's signatures (forge-std itself is not installed).
interface Vm {
    function envString(string calldata name) external view returns (string memory value);
    function envAddress(string calldata name) external view returns (address value);
    function envUint(string calldata name) external view returns (uint256 value);
    function envBytes32(string calldata name) external view returns (bytes32 value);
    function toString(uint256 value) external pure returns (string memory stringifiedValue);
    function rpcUrl(string calldata rpcAlias) external view returns (string memory json);
    function rpc(string calldata method, string calldata params) external returns (bytes memory data);
    function deal(address account, uint256 newBalance) external;
    function createSelectFork(string calldata urlOrAlias) external returns (uint256 forkId);
    function createSelectFork(string calldata urlOrAlias, uint256 blockNumber) external returns (uint256 forkId);
    function createSelectFork(string calldata urlOrAlias, bytes32 txHash) external returns (uint256 forkId);
    function rollFork(uint256 blockNumber) external;
    function rollFork(bytes32 txHash) external;
    function rollFork(uint256 forkId, uint256 blockNumber) external;
    function selectFork(uint256 forkId) external;
    function activeFork() external view returns (uint256 forkId);
    function transact(bytes32 txHash) external;
}

/// The chain both nodes were given (the same transactions, so the same addresses and blocks): the
/// counter is deployed after `beforeDeploy`; by `blockA` it is set to 7 and `holder` has 1 ether;
/// by `blockB` it is set to 42 (transaction `setTo42`, in block A + 1) and `holder` has 3 ether;
/// by the head it is incremented to 43.
abstract contract ForkState {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    string internal url;
    Counter internal counter;
    address internal holder;
    uint256 internal beforeDeploy;
    uint256 internal blockA;
    uint256 internal blockB;
    uint256 internal head;
    bytes32 internal setTo42;

    function setUp() public virtual {
        url = vm.envString("FORK_URL");
        counter = Counter(vm.envAddress("COUNTER"));
        holder = vm.envAddress("HOLDER");
        beforeDeploy = vm.envUint("BLOCK_BEFORE_DEPLOY");
        blockA = vm.envUint("BLOCK_A");
        blockB = vm.envUint("BLOCK_B");
        head = vm.envUint("BLOCK_HEAD");
        setTo42 = vm.envBytes32("TX_SET_42");
    }

    function eq(uint256 actual, uint256 expected, string memory what) internal pure {
        if (actual != expected) revert(string.concat(what, ": ", vm.toString(actual), " != ", vm.toString(expected)));
    }

    function expectA() internal view {
        eq(block.number, blockA, "block.number at A");
        eq(counter.count(), 7, "count at A");
        eq(holder.balance, 1 ether, "balance at A");
    }

    function expectB() internal view {
        eq(block.number, blockB, "block.number at B");
        eq(counter.count(), 42, "count at B");
        eq(holder.balance, 3 ether, "balance at B");
    }

    function expectHead() internal view {
        eq(block.number, head, "block.number at head");
        eq(counter.count(), 43, "count at head");
        eq(holder.balance, 3 ether, "balance at head");
    }
}

/// Forks made by the cheatcodes alone: `forge test` without --fork-url.
contract CheatcodeForkTest is ForkState {
    function test_createSelectFork_latest() public {
        uint256 id = vm.createSelectFork(url);
        eq(vm.activeFork(), id, "activeFork");
        eq(block.chainid, 31337, "chainid");
        expectHead();
    }

    function test_createSelectFork_atBlock() public {
        vm.createSelectFork(url, blockA);
        expectA();
        vm.createSelectFork(url, blockB);
        expectB();
    }

    function test_blockEnvironment_isTheNodesHeader() public {
        vm.createSelectFork(url, blockA);
        eq(block.timestamp, vm.envUint("A_TIMESTAMP"), "timestamp");
        eq(block.basefee, vm.envUint("A_BASE_FEE"), "basefee");
        eq(block.prevrandao, vm.envUint("A_PREVRANDAO"), "prevrandao");
        eq(block.gaslimit, vm.envUint("A_GAS_LIMIT"), "gaslimit");
        require(block.coinbase == vm.envAddress("A_COINBASE"), "coinbase");
        require(blockhash(blockA - 1) == vm.envBytes32("A_PARENT_HASH"), "blockhash of the parent");
    }

    function test_rollFork_forwardAndBack() public {
        vm.createSelectFork(url, blockA);
        expectA();
        vm.rollFork(blockB);
        expectB();
        vm.rollFork(beforeDeploy);
        eq(address(counter).code.length, 0, "code before the deployment");
        eq(holder.balance, 0, "balance before the deployment");
        vm.rollFork(blockA);
        expectA();
        vm.rollFork(head);
        expectHead();
    }

    function test_transactionInFork_staysLocal() public {
        vm.createSelectFork(url);
        counter.increment();
        eq(counter.count(), 44, "count after a local increment");
        vm.deal(address(this), 5 ether);
        payable(holder).transfer(2 ether);
        eq(holder.balance, 5 ether, "balance after a local transfer");
    }

    function test_twoForks_switching() public {
        uint256 a = vm.createSelectFork(url, blockA);
        uint256 b = vm.createSelectFork(url, blockB);
        require(a != b, "two forks, two ids");
        eq(vm.activeFork(), b, "activeFork after the second");
        expectB();
        vm.selectFork(a);
        eq(vm.activeFork(), a, "activeFork after selectFork(a)");
        expectA();
        counter.increment();
        eq(counter.count(), 8, "fork a after a local increment");
        vm.selectFork(b);
        expectB();
        vm.rollFork(b, head);
        expectHead();
        vm.rollFork(a, head);
        vm.selectFork(a);
        eq(block.number, head, "fork a rolled while not active");
    }

    function test_transactions_replayed() public {
        vm.createSelectFork(url, setTo42);
        eq(block.number, blockA + 1, "the transaction's block");
        eq(counter.count(), 7, "before the transaction, in its block");
        vm.createSelectFork(url, blockA);
        vm.transact(setTo42);
        eq(counter.count(), 42, "after transact");
        vm.rollFork(setTo42);
        eq(counter.count(), 7, "rollFork to the transaction");
    }

    function test_rpcEndpointAlias_andRpcCheatcode() public {
        require(keccak256(bytes(vm.rpcUrl("node"))) == keccak256(bytes(url)), "rpc_endpoints alias");
        vm.createSelectFork("node", blockB);
        expectB();
        bytes memory balance = vm.rpc("eth_getBalance", string.concat("[\"", vm.envString("HOLDER"), "\",\"latest\"]"));
        require(keccak256(balance) == keccak256(hex"29a2241af62c0000"), "vm.rpc eth_getBalance: 3 ether");
    }

    function test_webSocketUrl() public {
        vm.createSelectFork(vm.envString("FORK_WS"), blockA);
        expectA();
    }
}

/// Run with `forge test --fork-url <url>` (and `--fork-block-number`): the test starts forked.
contract ForkUrlTest is ForkState {
    function test_startsForked() public view {
        uint256 forkedAt = vm.envUint("FORKED_AT");
        if (forkedAt == head) expectHead();
        else if (forkedAt == blockA) expectA();
        else revert("FORKED_AT names no known block");
    }

    function test_rollFork() public {
        vm.rollFork(blockB);
        expectB();
        vm.rollFork(blockA);
        expectA();
    }

    function test_transactionInFork_staysLocal() public {
        uint256 before = counter.count();
        counter.increment();
        eq(counter.count(), before + 1, "count after a local increment");
    }
}

/// Blocks the node does not have: each test fails, with the same words from both nodes.
contract BeyondHeadTest is ForkState {
    function test_createSelectFork_beyondHead() public {
        vm.createSelectFork(url, head + 5);
    }

    function test_rollFork_beyondHead() public {
        vm.createSelectFork(url);
        vm.rollFork(head + 5);
    }
}
