// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Every way a call can end, for the differential corpus (test/differential/corpus/generated.ts).
contract Probe {
    error Nope(address who, uint256 n);
    event Ping(address indexed from, uint256 indexed n, bytes data);

    uint256 public x;

    function set(uint256 v) external {
        x = v;
        emit Ping(msg.sender, v, msg.data);
    }

    function reason() external pure {
        revert("nope");
    }

    function custom() external view {
        revert Nope(msg.sender, 7);
    }

    function divide(uint256 d) external pure returns (uint256) {
        return 1 / d;
    }

    function assertFalse() external pure {
        assert(false);
    }

    function invalidOpcode() external pure {
        assembly {
            invalid()
        }
    }

    function burn() external view returns (uint256 i) {
        while (gasleft() > 0) i++;
    }

    function bare() external pure {
        revert();
    }

    function env() external view returns (uint256, uint256, uint256, uint256, uint256) {
        return (block.number, block.timestamp, block.basefee, block.gaslimit, block.chainid);
    }

    function pay() external payable returns (uint256) {
        return msg.value;
    }

    function deep(uint256 n) external returns (uint256) {
        if (n == 0) {
            x += 1;
            return x;
        }
        return this.deep(n - 1);
    }

    function innerRevert() external {
        this.reason();
    }
}
