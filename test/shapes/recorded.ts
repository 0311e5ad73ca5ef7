/**
 * The streaming shapes real agents emit, as SSE `result` payloads, one per line (from
 * shared/research/a2a-go-and-agents.md §B.10: ADK, kagent, a2a-samples; v0.3 and v1.0 JSON).
 */
export const SHAPES: Record<string, string> = {
  F1: String.raw`{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"submitted","message":{"kind":"message","role":"user","messageId":"u1","parts":[{"kind":"text","text":"Weather in Paris?"}]}}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working"},"metadata":{"adk_app_name":"weather","adk_user_id":"A2A_USER_C","adk_session_id":"C"}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m1","parts":[{"kind":"data","data":{"id":"fc1","name":"get_weather","args":{"city":"Paris"}},"metadata":{"adk_type":"function_call"}}]}},"metadata":{"adk_author":"weather","adk_invocation_id":"i1","adk_event_id":"e1"}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m2","parts":[{"kind":"data","data":{"id":"fc1","name":"get_weather","response":{"temp_c":21}},"metadata":{"adk_type":"function_response"}}]}}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m3","parts":[{"kind":"text","text":"It is 21°C in Paris."}]}}}
{"kind":"artifact-update","taskId":"T","contextId":"C","lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"kind":"text","text":"It is 21°C in Paris."}]}}
{"kind":"status-update","taskId":"T","contextId":"C","final":true,"status":{"state":"completed"}}`,
  F2: String.raw`{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"submitted","message":{"kind":"message","role":"user","messageId":"u1","parts":[{"kind":"text","text":"hi"}]}}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working"},"metadata":{"kagent_app_name":"k8s_agent","kagent_session_id":"C"}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"p1","parts":[{"kind":"text","text":"Hel"}]}},"metadata":{"kagent_adk_partial":true}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"p2","parts":[{"kind":"text","text":"lo!"}]}},"metadata":{"kagent_adk_partial":true}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m1","parts":[{"kind":"text","text":"Hello!"}]}},"metadata":{"kagent_adk_partial":false}}
{"kind":"artifact-update","taskId":"T","contextId":"C","lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"kind":"text","text":"Hello!"}]}}
{"kind":"status-update","taskId":"T","contextId":"C","final":true,"status":{"state":"completed"},"metadata":{"kagent_invocation_id":"i1"}}`,
  F3: String.raw`{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_SUBMITTED"},"history":[{"messageId":"u1","role":"ROLE_USER","parts":[{"text":"hi"}]}]}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_WORKING"},"metadata":{"adk_app_name":"root","adk_session_id":"C"}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","artifact":{"artifactId":"A","parts":[{"text":"Hel"}],"metadata":{"adk_author":"root"}}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","append":true,"artifact":{"artifactId":"A","parts":[{"text":"lo!"}],"metadata":{"adk_author":"root"}}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","lastChunk":true,"artifact":{"artifactId":"A","parts":[{"text":"Hello!"}],"metadata":{"adk_author":"root"}}}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED"}}}`,
  F4: String.raw`{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_SUBMITTED"}}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_WORKING"}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","metadata":{"adk_partial":true},"artifact":{"artifactId":"P","metadata":{"adk_partial":true},"parts":[{"text":"Hel","metadata":{"adk_partial":true}}]}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","metadata":{"adk_partial":true},"artifact":{"artifactId":"P","metadata":{"adk_partial":true},"parts":[{"text":"lo!","metadata":{"adk_partial":true}}]}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","metadata":{"adk_partial":false},"artifact":{"artifactId":"R","parts":[{"text":"Hello!"}]}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","lastChunk":true,"metadata":{"adk_partial":true},"artifact":{"artifactId":"P","parts":[{"data":{}}]}}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED"}}}`,
  F5: String.raw`{"kind":"task","id":"T","contextId":"C","status":{"state":"submitted"},"history":[{"kind":"message","role":"user","messageId":"u1","parts":[{"kind":"text","text":"10 USD in EUR?"}]}]}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","parts":[{"kind":"text","text":"Looking up the exchange rates..."}]}}}
{"kind":"status-update","taskId":"T","contextId":"C","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","parts":[{"kind":"text","text":"Processing the exchange rates.."}]}}}
{"kind":"artifact-update","taskId":"T","contextId":"C","artifact":{"artifactId":"a1","name":"conversion_result","parts":[{"kind":"text","text":"10 USD = 9.2 EUR"}]}}
{"kind":"status-update","taskId":"T","contextId":"C","final":true,"status":{"state":"completed"}}`,
  F6a: String.raw`{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_SUBMITTED"},"history":[{"role":"ROLE_USER","messageId":"u1","parts":[{"text":"hi"}]}]}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_WORKING","message":{"role":"ROLE_AGENT","parts":[{"text":"Processing request..."}]}}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","artifact":{"artifactId":"a1","parts":[{"text":"Hello, World! I have received your request (hi)","mediaType":"text/plain"}]}}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED","message":{"role":"ROLE_AGENT","parts":[{"text":"Request is completed!"}]}}}}`,
  F6b: String.raw`{"kind":"message","role":"agent","messageId":"m1","parts":[{"kind":"text","text":"Hello World"}]}`,
  F7: String.raw`{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_SUBMITTED"}}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_WORKING"}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","artifact":{"artifactId":"A","name":"current_result","parts":[{"text":"Step 0"}]}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","append":true,"artifact":{"artifactId":"A","name":"current_result","parts":[{"text":"I will call"}]}}}
{"artifactUpdate":{"taskId":"T","contextId":"C","append":true,"lastChunk":true,"artifact":{"artifactId":"A","name":"current_result","parts":[{"text":"Task completed"}]}}}
{"statusUpdate":{"taskId":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED"}}}`,
};
