/**
 * The gas of Reverter's deployment and of its succeed(), as `hardhat run` prints them (one JSON
 * line): the repository's test runs it on Hardhat Network itself and compares hardhat-gas-reporter's
 * figures on the finality network with them.
 */
const { ethers } = require('hardhat')

async function main() {
  const reverter = await ethers.deployContract('Reverter')
  const deployed = await reverter.deploymentTransaction().wait()
  const called = await (await reverter.succeed()).wait()
  console.log(JSON.stringify({ client: await ethers.provider.send('web3_clientVersion'), deployment: Number(deployed.gasUsed), succeed: Number(called.gasUsed) }))
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
