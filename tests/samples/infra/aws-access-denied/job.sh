python3 standin.py 18765 &
sleep 1
export AWS_ACCESS_KEY_ID=AKIDEXAMPLESTANDIN AWS_SECRET_ACCESS_KEY=standin-not-a-secret AWS_DEFAULT_REGION=us-east-1
aws s3 ls --endpoint-url http://127.0.0.1:18765
