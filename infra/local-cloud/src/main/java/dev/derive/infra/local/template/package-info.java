/**
 * Reads {@code template.yaml} for the local cloud.
 *
 * <ul>
 *   <li><b>Intrinsics</b> (short tags and long forms): {@code Ref} (parameters, pseudo parameters
 *       {@code AWS::StackName}, {@code AWS::AccountId}, {@code AWS::Region}, {@code
 *       AWS::URLSuffix}, {@code AWS::Partition}, {@code AWS::StackId}, and {@code AWS::NoValue},
 *       which removes the property or list element), {@code Fn::GetAtt}, {@code Fn::Sub}, {@code
 *       Fn::If}, {@code Fn::Join}, {@code Fn::Select}, {@code Fn::Split}; anything else ({@code
 *       Fn::FindInMap}, {@code Fn::ImportValue}, {@code Fn::GetAZs} …) is refused with an {@link
 *       dev.derive.infra.local.template.UnsupportedIntrinsicException} naming it.
 *   <li><b>Conditions</b>: the {@code Conditions} section ({@code Fn::Equals}, {@code Fn::Not},
 *       {@code Fn::And}, {@code Fn::Or}, {@code Condition}), evaluated against parameter defaults
 *       and overrides; a resource whose {@code Condition} is false is not created (one startup line
 *       says so).
 *   <li><b>Resource types</b>: {@code AWS::S3::Bucket}, {@code AWS::SQS::Queue}, {@code
 *       AWS::DynamoDB::Table} are created; {@code AWS::Serverless::Function} runs, with the {@code
 *       AWS::Serverless::LayerVersion}s its {@code Layers} name extracted into its {@code /opt}
 *       ({@link dev.derive.infra.local.template.LayerDefinitions}); HTTP routes come from {@code
 *       HttpApi} events and from {@code AWS::ApiGatewayV2::Route} resources ({@link
 *       dev.derive.infra.local.template.FunctionDefinitions}); the types of {@link
 *       dev.derive.infra.local.template.LocalMeaning} (alarms, log groups, bucket policies, SNS,
 *       IAM, Lambda permissions, API Gateway v2 API, stage, integration, route, authorizer) are
 *       acknowledged and skipped with one startup line each — auth is not enforced locally. Any
 *       other type is refused.
 *   <li><b>Functions</b>: {@code Globals.Function} is merged in; only {@link
 *       dev.derive.infra.local.template.FunctionDefinitions#LOCAL_PROPERTIES} are evaluated; event
 *       types {@code HttpApi} and {@code SQS}.
 *   <li><b>Parameters</b>: one whose {@code AllowedValues} are Lambda's instruction sets ({@code
 *       x86_64}, {@code arm64}) is set to this machine's unless overridden: functions run on this
 *       machine's instruction set, and native code in their layers must match it.
 * </ul>
 */
package dev.derive.infra.local.template;
