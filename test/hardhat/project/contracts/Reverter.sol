// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Every way a call can fail, for the chai matchers, and a counter that shows whether a
/// transaction's writes stayed.
contract Reverter {
    error Unauthorized(address caller, uint256 code);

    uint256 public count;

    event Paid(address from, uint256 value);

    function succeed() external {
        count += 1;
    }

    function failWithReason() external {
        count += 1;
        revert("nope");
    }

    function failWithCustomError(uint256 code) external {
        count += 1;
        revert Unauthorized(msg.sender, code);
    }

    function failWithPanic(uint256 divisor) external returns (uint256) {
        count += 1;
        return 100 / divisor;
    }

    function failWithoutReason() external {
        count += 1;
        revert();
    }

    function pay() external payable {
        emit Paid(msg.sender, msg.value);
    }
}
