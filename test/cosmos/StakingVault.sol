// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "../fixtures/cosmos-evm/precompiles/staking/StakingI.sol";
import "../fixtures/cosmos-evm/precompiles/distribution/DistributionI.sol";

/// A vault that stakes its deposits with one validator through Cosmos EVM's staking precompile
/// and reports what its delegation is worth (a slash shows as a smaller balance).
contract StakingVault {
    string public validator;
    mapping(address => uint256) public deposited;
    uint256 public totalDeposited;

    constructor(string memory validator_) {
        validator = validator_;
    }

    function deposit() external payable {
        deposited[msg.sender] += msg.value;
        totalDeposited += msg.value;
        require(STAKING_CONTRACT.delegate(address(this), validator, msg.value), "delegate failed");
    }

    function withdraw(uint256 amount) external returns (int64 completion) {
        require(deposited[msg.sender] >= amount, "not deposited");
        deposited[msg.sender] -= amount;
        totalDeposited -= amount;
        completion = STAKING_CONTRACT.undelegate(address(this), validator, amount);
    }

    /// What the vault's delegation is worth now.
    function staked() public view returns (uint256) {
        (, Coin memory balance) = STAKING_CONTRACT.delegation(address(this), validator);
        return balance.amount;
    }

    /// The loss against the deposits (a slash of the validator).
    function loss() external view returns (uint256) {
        uint256 s = staked();
        return s >= totalDeposited ? 0 : totalDeposited - s;
    }

    /// Claims the delegation's rewards into the vault; answers what came in.
    function claim() external returns (uint256 received) {
        uint256 before = address(this).balance;
        require(DISTRIBUTION_CONTRACT.claimRewards(address(this), 1), "claim failed");
        received = address(this).balance - before;
    }

    receive() external payable {}
}
